import { ApiError } from '../../common/api-error.js';
import { writeActionOf } from './write-action.js';

describe('writeActionOf', () => {
  it('defaults from the verb when the object names none', () => {
    expect(writeActionOf(undefined, 'INSERT')).toBe('INSERT');
    expect(writeActionOf(undefined, 'UPDATE')).toBe('UPDATE');
  });

  it('reads LAC action names in any case', () => {
    expect(writeActionOf('delete', 'UPDATE')).toBe('DELETE');
    expect(writeActionOf('Merge_Insert', 'INSERT')).toBe('MERGE_INSERT');
    expect(writeActionOf('LOOKUP', 'INSERT')).toBe('LOOKUP');
  });

  it('refuses an unknown action with 400 / 4000 naming it', () => {
    expect(() => writeActionOf('UPSERT', 'UPDATE')).toThrow(ApiError);
    expect(() => writeActionOf('UPSERT', 'UPDATE')).toThrow(/"UPSERT"/);
  });
});
