import type { QueryRunner } from 'typeorm';
import { LoginAttemptCounters1763800007000 } from '../src/database/migrations/1763800007000-login-attempt-counters.js';
import { TokenDisabledAt1763800012000 } from '../src/database/migrations/1763800012000-token-disabled-at.js';
import { LoginLeases1763800015000 } from '../src/database/migrations/1763800015000-login-leases.js';
import { loginAs } from './support/auth.js';
import { suiteResource } from './support/suite-resource.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/** The migrations of issue 13's authentication items go down and up again on every database. */
describeEachTarget('auth hardening migrations', (target) => {
  let t: TestApp;
  let runner: QueryRunner;

  suiteApp(target, {}, (app) => {
    t = app;
  });
  suiteResource(
    async () => t.dataSource.createQueryRunner(),
    (started) => started.release(),
    (started) => {
      runner = started;
    },
  );

  const sql = (text: string, parameters: Record<string, unknown> = {}) => {
    const [query, values] = t.dataSource.driver.escapeQueryWithParameters(text, parameters);
    return runner.query(query, values);
  };

  it('token disabled_at: down drops it, up adds it back dated now for tokens already disabled', async () => {
    const active = await loginAs(t, 'demo', 'Password1');
    await loginAs(t, 'readonly', 'Password1');
    expect(active).toBeTruthy();
    const migration = new TokenDisabledAt1763800012000();
    await migration.down(runner);
    expect((await runner.getTable('tessera_api_tokens'))!.findColumnByName('disabled_at')).toBeUndefined();
    await sql("UPDATE tessera_api_tokens SET disabled = :yes WHERE label = 'Temp key for readonly'", { yes: true });
    const before = Date.now();
    await migration.up(runner);
    const table = (await runner.getTable('tessera_api_tokens'))!;
    expect(table.findColumnByName('disabled_at')).toBeDefined();
    expect(table.indices.map((i) => i.name)).toEqual(
      expect.arrayContaining(['ix_tessera_api_tokens_disabled_at', 'ix_tessera_api_tokens_expiration']),
    );
    const rows = (await sql('SELECT label, disabled_at FROM tessera_api_tokens ORDER BY id')) as Array<{
      label: string;
      disabled_at: string | number | null;
    }>;
    const dated = Object.fromEntries(rows.map((r) => [r.label, r.disabled_at === null ? null : Number(r.disabled_at)]));
    expect(dated['Temp key for demo']).toBeNull();
    expect(dated['Temp key for readonly']).toBeGreaterThanOrEqual(before);
  });

  it('login attempt counters: down brings the failures table back, up replaces it again', async () => {
    const migration = new LoginAttemptCounters1763800007000();
    await migration.down(runner);
    expect(await runner.hasTable('tessera_login_attempts')).toBe(false);
    expect(await runner.hasTable('tessera_login_failures')).toBe(true);
    await migration.up(runner);
    expect(await runner.hasTable('tessera_login_attempts')).toBe(true);
    expect(await runner.hasTable('tessera_login_failures')).toBe(false);
    // And the service still counts logins on the recreated table.
    await t.http().post(`${t.base}/@authentication`).send({ username: 'demo', password: 'wrong-one' }).expect(401);
    await loginAs(t, 'demo', 'Password1');
  });

  it('login leases: down drops the table, up makes it again and counts no login in progress that has no lease', async () => {
    const migration = new LoginLeases1763800015000();
    await migration.down(runner);
    expect(await runner.hasTable('tessera_login_leases')).toBe(false);
    // Left by a build without leases: 7 logins counted as in progress, no row to say they still are.
    await sql(
      "INSERT INTO tessera_login_attempts (scope, subject, window_start, failures, pending) VALUES ('account', 'api:left-over', :now, 2, 7)",
      { now: Date.now() },
    );
    await migration.up(runner);
    expect((await runner.getTable('tessera_login_leases'))!.indices.map((i) => i.name)).toEqual(['ix_tessera_login_leases_expiry']);
    const [counter] = (await sql("SELECT failures, pending FROM tessera_login_attempts WHERE subject = 'api:left-over'")) as Array<{
      failures: number | string;
      pending: number | string;
    }>;
    expect({ failures: Number(counter!.failures), pending: Number(counter!.pending) }).toEqual({ failures: 2, pending: 0 });
    await loginAs(t, 'demo', 'Password1');
  });
});
