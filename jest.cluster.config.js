import base from './jest.config.js';

/**
 * `npm run test:cluster`: Tessera on a three-node MariaDB Galera cluster with HAProxy
 * (scripts/cluster/cluster.sh starts and stops it). Its own config, so that `npm test` never
 * starts a cluster: the default testMatch does not match *.cluster-spec.ts. Needs the built
 * service (npm run build), root, and mariadb-server, galera-4, rsync and haproxy.
 */
export default {
  ...base,
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  globalSetup: undefined,
  testTimeout: 300_000,
  maxWorkers: 1,
};
