import type { AuthProvider } from './auth-provider.js';
import { ProviderConfigError, selectProvider } from './select-provider.js';

const provider = (name: string): AuthProvider => ({ name, authenticate: async () => ({ errorMessage: 'x' }), loginFields: () => [] });

describe('selectProvider', () => {
  const builtIn = [provider('default'), provider('none')];

  it('picks a built-in provider by name', () => {
    expect(selectProvider('none', builtIn)).toBe(builtIn[1]);
  });

  it('refuses any other name with a message naming it and the choices', () => {
    expect(() => selectProvider('ldap', builtIn)).toThrow(ProviderConfigError);
    expect(() => selectProvider('ldap', builtIn)).toThrow(/"ldap".*issue 4.*"default" or "none"/);
  });
});
