import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Global, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { registryOf } from '../test/support/registry.js';
import { Metrics, NO_METRICS } from './observability/metrics.js';
import { loadConfig } from './config/app-config.js';
import { APP_CONFIG } from './config/config.module.js';
import { RowChecksum } from './data/checksum.js';
import { ResourceRegistry } from './data/resource-registry.js';
import { Database } from './database/database.js';
import { createLogger, LOGGER } from './observability/logger.js';
import { LogicModule } from './logic/logic.module.js';
import { formula } from './logic/rule-dsl.js';
import { RuleBankError } from './logic/rule-bank.js';
import { demoProject } from './demo/project.js';
import { Lineitem } from './demo/entities/lineitem.entity.js';
import { RoleBankError } from './security/role-bank.js';
import { SecurityModule } from './security/security.module.js';

/**
 * The banks' rejections are specified beside them (rule-bank.spec.ts, role-bank.spec.ts); this
 * shows they are wired into the boot: a module built from a bad project does not start, and
 * the error is the bank's one message. The modules are composed as AppModule composes them,
 * over a real registry and database (in memory), without HTTP.
 */
describe('composition: a bad project stops the boot', () => {
  let dataSource: DataSource;
  let base: DynamicModule;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    const registry = await registryOf(demoProject.entities);
    @Global()
    @Module({})
    class Below {}
    base = {
      module: Below,
      providers: [
        { provide: ResourceRegistry, useValue: registry },
        { provide: Database, useValue: new Database(dataSource) },
        { provide: APP_CONFIG, useValue: loadConfig({}) },
        { provide: RowChecksum, useValue: await RowChecksum.fromSecret('a composition spec secret, 32+ chars') },
        { provide: LOGGER, useValue: createLogger('silent') },
        { provide: Metrics, useValue: NO_METRICS },
      ],
      exports: [ResourceRegistry, Database, APP_CONFIG, RowChecksum, LOGGER, Metrics],
    };
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  async function boot(module: DynamicModule): Promise<unknown> {
    @Module({ imports: [base, module] })
    class Root {}
    try {
      const context = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
      await context.close();
      return 'booted';
    } catch (error) {
      return error;
    }
  }

  it('boots with the demo rules and roles', async () => {
    expect(await boot(LogicModule.forRoot(demoProject))).toBe('booted');
    expect(await boot(SecurityModule.forRoot(demoProject))).toBe('booted');
  });

  it('does not boot LogicModule with a rule the bank refuses', async () => {
    const bad = formula({ entity: Lineitem, attr: 'amount', uses: ['qty_ordered'], compute: (item) => item.qty_ordered });
    const error = await boot(LogicModule.forRoot({ rules: [...demoProject.rules!, bad] }));
    expect(error).toBeInstanceOf(RuleBankError);
    expect((error as Error).message).toMatch(/lineitem\.amount is already derived by another rule/);
  });

  it('does not boot SecurityModule with a role the bank refuses', async () => {
    const roles = {
      globals: [],
      roles: [{ name: 'Broken', defaultAccess: 'NONE' as const, resources: { nothing: { access: ['READ' as const] } } }],
    };
    const error = await boot(SecurityModule.forRoot({ roles }));
    expect(error).toBeInstanceOf(RoleBankError);
    expect((error as Error).message).toMatch(/role "Broken", resource "nothing": no such resource/);
  });
});
