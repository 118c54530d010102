import { startService, type ServiceProcess } from './service-process.js';
import type { TestTarget } from './test-app.js';
import { createScratchDatabase, type ScratchDatabase } from './test-databases.js';

/** The demo project's API base, as the real LAC clients are given it. */
export const LAC_BASE_PATH = '/rest/default/demo/v1';

/** The built service on a scratch database of the target's kind, for the real LAC clients to talk to. */
export interface LacService {
  /** e.g. http://127.0.0.1:40123/rest/default/demo/v1 */
  url: string;
  service: ServiceProcess;
  stop(): Promise<void>;
}

/** `env`: more settings, e.g. `{ RESOURCE_PREFIX: 'demo' }` for the LAC READMEs' `demo:customer`. */
export async function startLacService(target: TestTarget, env: Record<string, string> = {}): Promise<LacService> {
  const database: ScratchDatabase = await createScratchDatabase(target.database);
  let service: ServiceProcess;
  try {
    service = await startService(
      {
        DATABASE_URL: database.url,
        HTTP_ADAPTER: target.adapter,
        TESSERA_ADMIN_USER: 'lac-admin',
        TESSERA_ADMIN_PASSWORD: 'lac-admin-password',
        ...env,
      },
      170_000,
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${service.port}${LAC_BASE_PATH}`,
    service,
    stop: async () => {
      service.kill();
      await service.exited;
      await database.drop();
    },
  };
}

/** Logs in as the demo user (password `Password1`) the way the LAC clients do, and returns the key it answers. */
export async function demoApiKey(lac: LacService): Promise<string> {
  const res = await fetch(`${lac.url}/@authentication`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'Password1' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { apikey: string }).apikey;
}
