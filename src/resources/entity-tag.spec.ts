import { ifNoneMatchHolds } from './entity-tag.js';

describe('ifNoneMatchHolds', () => {
  const tag = '"R:0123456789abcdef"';

  it.each([tag, `W/${tag}`, ` ${tag} `, `"a", ${tag}`, `W/"a",W/${tag},"b"`, '*', ' * '])('matches %j', (value) => {
    expect(ifNoneMatchHolds(value, tag)).toBe(true);
  });

  it.each(['R:0123456789abcdef', '"R:0123456789abcde"', '"r:0123456789ABCDEF"', '', '"a", "b"', `w/${tag}`, `${tag}x`, '"*"'])(
    'does not match %j',
    (value) => {
      expect(ifNoneMatchHolds(value, tag)).toBe(false);
    },
  );

  it('compares weakly when the tag itself is weak', () => {
    expect(ifNoneMatchHolds(tag, `W/${tag}`)).toBe(true);
  });
});
