import { API_BASE, authHeader, PASSWORD } from './workloads.js';

/** How the harness got its tokens from one server. */
export type TokenMode =
  | { kind: 'token'; demoAuth: string; samAuth: string }
  /** The server has no `@authentication` yet: requests go without a token. */
  | { kind: 'none'; reason: string };

async function login(url: string, username: string): Promise<string | 404> {
  const response = await fetch(`${url}${API_BASE}/@authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  const body = (await response.json().catch(() => undefined)) as { apikey?: unknown } | undefined;
  if (response.status === 404) return 404;
  if (!response.ok || typeof body?.apikey !== 'string') {
    throw new Error(`login as ${username} at ${url} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.apikey;
}

/**
 * Logs in as demo (Full access) and sam (Sales rep) when the server has `@authentication`;
 * otherwise says so, and the table is marked "no token check".
 */
export async function obtainTokens(url: string): Promise<TokenMode> {
  const demo = await login(url, 'demo');
  if (demo === 404) return { kind: 'none', reason: 'no token check: auth not landed' };
  const sam = await login(url, 'sam');
  if (sam === 404) throw new Error('@authentication answered for demo but not for sam');
  return { kind: 'token', demoAuth: authHeader(demo), samAuth: authHeader(sam) };
}
