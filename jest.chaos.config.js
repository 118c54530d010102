import base from './jest.config.js';

/**
 * `npm run test:chaos`: the kill -9 chaos test (test/chaos/), on MariaDB/MySQL and PostgreSQL
 * (TEST_MYSQL_URL, TEST_POSTGRES_URL), and the unit spec of its ledger. Its own config, so that
 * `npm test` never runs it: the default testMatch matches neither *.chaos-spec.ts nor specs
 * under test/. Needs the built service (dist/).
 */
export default {
  ...base,
  testMatch: ['<rootDir>/test/chaos/**/*.chaos-spec.ts', '<rootDir>/test/chaos/**/*.spec.ts'],
  globalSetup: undefined,
  testTimeout: 600_000,
  maxWorkers: 1,
};
