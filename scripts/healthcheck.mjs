#!/usr/bin/env node
/**
 * The container's health check (the image's HEALTHCHECK and docker-compose.yml's): asks the
 * service on this machine whether it is ready, `GET http://127.0.0.1:$PORT/health/ready`, and
 * exits 0 on a 200, 1 on anything else: another status (503 while the database does not
 * answer or migrations are pending), a refused connection, or no answer within 3 s. Plain
 * Node, so the slim runtime image needs neither curl nor wget.
 *
 * One optional argument replaces the path; it exists for the test suite, which probes a
 * running service before the readiness endpoint is there. Containers call it without one.
 */
import { request } from 'node:http';

const TIMEOUT_MS = 3000;
const port = Number(process.env.PORT || 8080);
const path = process.argv[2] ?? '/health/ready';

/** @param {string} reason */
function unhealthy(reason) {
  process.stderr.write(`healthcheck: ${reason}\n`);
  process.exit(1);
}

const req = request({ host: '127.0.0.1', port, path, method: 'GET', timeout: TIMEOUT_MS }, (res) => {
  res.resume();
  if (res.statusCode === 200) process.exit(0);
  unhealthy(`GET ${path} answered ${res.statusCode}`);
});
req.on('timeout', () => {
  req.destroy();
  unhealthy(`GET ${path} had no answer within ${TIMEOUT_MS} ms`);
});
req.on('error', (error) => unhealthy(`GET ${path} failed: ${error.message}`));
req.end();
