import base from './jest.config.js';

/**
 * `npm run test:unit`: only the unit specs beside the code (src/, bench/). No end-to-end suite,
 * so no globalSetup either: it serves those suites alone (says which of them are skipped).
 */
export default {
  ...base,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'],
  globalSetup: undefined,
};
