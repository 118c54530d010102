/** Jest runs in native ESM mode (Nest 12 ships ES modules only); swc strips types and keeps decorator metadata. */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

/**
 * Suites of the service's process life (real processes started, killed, drained and restarted, waiting out real grace
 * periods and leases; the image's entry command; the dev loop's rebuilds): about a fifth of the suites' time for six
 * files, so `npm test` leaves them to the whole matrix (`npm run test:all`, what CI runs) and says so up front.
 */
export const PROCESS_LIFE_SUITES = ['shutdown', 'login-leases', 'dev-loop', 'image', 'boot-kill', 'instances'];
const fullMatrix = process.env.TEST_MATRIX === 'all';
/** A run that names one of them (`npm test -- test/shutdown`) runs it. */
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && PROCESS_LIFE_SUITES.some((name) => arg.includes(name)));

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/providers/**/*.e2e-spec.ts',
    '<rootDir>/bench/**/*.spec.ts',
  ],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(fullMatrix || named ? [] : PROCESS_LIFE_SUITES.map((name) => `/test/${name}\\.e2e-spec\\.ts$`)),
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
