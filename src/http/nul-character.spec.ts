import { nulInUrl } from './nul-character.js';

describe('nulInUrl', () => {
  it.each(['/rest/default/demo/v1/customer/%00', '/x?filter=name%20%3D%20%27%00%27', '/x?%00=1', '/x?a=1&b%00c=2', '/x\u0000'])(
    'refuses %j with 400 / 4000',
    (url) => {
      expect(nulInUrl(url)).toMatchObject({ statusCode: 400, errorCode: 4000 });
    },
  );

  it.each(['/rest/default/demo/v1/customer/100%2500', '/x?filter=a%20%3D%2000', '/x?q=%C3%A900', '/x?q=%200', undefined])(
    'lets %j through',
    (url) => {
      expect(nulInUrl(url)).toBeUndefined();
    },
  );
});
