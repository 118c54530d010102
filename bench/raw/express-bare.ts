/**
 * express-bare: Express 5 and nothing else, serving W0 (@heartbeat) and W1 (one customer by
 * key) with the raw server's answers (bench/raw/answers.ts: the same store, token check, rows
 * and bytes). It shows what Express itself costs, so the report can say how close Tessera on
 * Express comes to it. No middleware on W0 and W1; express.json() only on the login route, which
 * the harness calls once for its tokens. Two settings, both Tessera's too, make the bytes the
 * same: no X-Powered-By, no ETag of Express's own (W1's ETag is the row checksum, as on raw).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  BASE,
  HttpError,
  customerAnswer,
  errorAnswer,
  heartbeat,
  heartbeatHeadersFromEnv,
  loginAnswer,
  principalOf,
  type Answer,
} from './answers.js';
import { useChecksumSecret } from './rows.js';
import { openRawStore } from './store.js';
import { RawTokens } from './tokens.js';

const env = process.env;
const requireToken = env.RAW_REQUIRE_TOKEN !== '0';
if (!env.CHECKSUM_SECRET) throw new Error("express-bare needs CHECKSUM_SECRET, the same as Tessera's");
await useChecksumSecret(env.CHECKSUM_SECRET);

const store = await openRawStore(env.DATABASE_URL ?? 'sqlite:./data/tessera.sqlite', Number(env.DB_POOL_SIZE ?? 10));
const tokens = await RawTokens.withDemoUsers(Number(env.BCRYPT_COST ?? 10));
const heartbeatAnswer = heartbeat(heartbeatHeadersFromEnv(env));

const send = (res: Response, a: Answer): void => {
  res.status(a.status).set(a.headers).json(a.body);
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);

app.get(`${BASE}/@heartbeat`, (_req: Request, res: Response) => send(res, heartbeatAnswer()));

app.post(`${BASE}/@authentication`, express.json(), async (req: Request, res: Response) => {
  const body: unknown = req.body;
  send(res, await loginAnswer(store, tokens, body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {}));
});

app.get(`${BASE}/customer/:key`, async (req: Request<{ key: string }>, res: Response) => {
  principalOf(tokens, requireToken, req.headers.authorization);
  send(res, await customerAnswer(store, req.params.key, `http://${req.headers.host ?? 'localhost'}${BASE}`));
});

app.use((_req: Request, res: Response) =>
  send(res, errorAnswer(new HttpError(404, 4040, 'express-bare serves W0 and W1 only.'), 'express-bare')),
);

// Express 5 passes a rejected handler's error here.
app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  if (!res.headersSent) send(res, errorAnswer(error, 'express-bare'));
});

const server = app.listen(Number(env.PORT ?? 8080), env.HOST ?? '127.0.0.1');
// Tessera's default (KEEP_ALIVE_TIMEOUT_MS), so the Keep-Alive header reads the same.
server.keepAliveTimeout = 65_000;
process.once('SIGTERM', () => server.close(() => process.exit(0)));
