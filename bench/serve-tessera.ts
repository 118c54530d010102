/**
 * Tessera exactly as `npm start` runs it (the harness passes the same Node.js flags), plus an event-loop delay probe in the
 * same process (see loop-delay-probe.ts). Used only by the login storm, which needs the
 * server's own loop delay; the product gains no endpoint for it.
 */
import { installLoopDelayProbe } from './loop-delay-probe.js';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (!file) throw new Error('BENCH_LOOP_DELAY_FILE is not set');
installLoopDelayProbe(file);
// Resolved at run time (not followed by tsc): the product is built by `npm run build`, as for `npm start`.
await import(new URL('../src/main.js', import.meta.url).href);
