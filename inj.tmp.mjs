import 'reflect-metadata';
import { createApp } from './dist/src/bootstrap.js';
import { createLogger } from './dist/src/common/logger.js';
import { loadConfig } from './dist/src/config/app-config.js';
import { openDatabase } from './dist/src/database/open-database.js';
import { demoProject } from './dist/src/project/project.js';
import { rmSync } from 'node:fs';
rmSync('/tmp/prof/inj.db', { force: true }); rmSync('/tmp/prof/inj.db-wal', { force: true }); rmSync('/tmp/prof/inj.db-shm', { force: true });
const config = loadConfig({ DATABASE_URL: 'sqlite:/tmp/prof/inj.db', LOG_LEVEL: 'warn', HTTP_ADAPTER: 'fastify', BCRYPT_COST: '10', TESSERA_ADMIN_USER: 'a', TESSERA_ADMIN_PASSWORD: 'admin-password-1' });
const ds = await openDatabase(config.database, demoProject);
const app = await createApp({ config, project: demoProject, dataSource: ds, logger: createLogger('warn') });
const f = app.getHttpAdapter().getInstance();
const base = `/rest/default/demo/v1`;
const login = JSON.parse((await f.inject({ method: 'POST', url: `${base}/@authentication`, payload: { username: 'demo', password: 'Password1' } })).body);
const headers = { authorization: `CALiveAPICreator ${login.apikey}:1`, host: 'bench.local' };
const list = JSON.parse((await f.inject({ method: 'GET', url: `${base}/customer?pagesize=100`, headers })).body);
const urls = list.filter(c => c.name).map(c => `${base}/customer/${encodeURIComponent(c.name)}`);
const path = process.argv[2] === 'W2' ? (i) => `${base}/customer?filter=${encodeURIComponent('balance > 0')}&order=name` : (i) => urls[i % urls.length];
console.log((await f.inject({ method: 'GET', url: path(0), headers })).statusCode);
for (let r = 0; r < 4; r++) {
  const n = 20000; const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) { const res = await f.inject({ method: 'GET', url: path(i), headers }); if (res.statusCode !== 200) throw new Error(res.body); }
  const cpu = process.cpuUsage(c0);
  console.log('µs/req wall', (Number(process.hrtime.bigint() - t0) / n / 1000).toFixed(1), 'cpu', ((cpu.user + cpu.system) / n).toFixed(1));
}
await app.close();
