import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ApiSettings } from './config/api-settings.js';
import { loadConfig } from './config/app-config.js';
import { APP_CONFIG } from './config/config.module.js';
import { Database } from './database/database.js';
import { LogicModule } from './logic/logic.module.js';
import { formula } from './logic/rule-dsl.js';
import { RuleBankError } from './logic/rule-bank.js';
import { demoProject } from './demo/project.js';
import { Lineitem } from './demo/entities/lineitem.entity.js';
import { createLogger, LOGGER } from './observability/logger.js';
import { Metrics, NO_METRICS } from './observability/metrics.js';
import type { ProjectDefinition } from './project-definition.js';
import { ProjectModule } from './project.module.js';
import { RoleBankError } from './security/role-bank.js';
import { SecurityModule } from './security/security.module.js';

/**
 * The banks' rejections are specified beside them (rule-bank.spec.ts, role-bank.spec.ts); this
 * shows they are wired into the boot: a module given a bad project (through ProjectModule, as
 * CoreModule gives it) does not start, and the error is the bank's one message. The modules are
 * compiled in a testing module over a real database (in memory), without HTTP.
 */
describe('composition: a bad project stops the boot', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: demoProject.entities }).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  /** What CoreModule would give: the database, configuration, logger, metrics, settings and the project's parts. */
  function core(project: ProjectDefinition): DynamicModule {
    const config = loadConfig({ CHECKSUM_SECRET: 'a composition spec secret, 32+ chars' });
    @Module({})
    class Core {}
    const providers = [
      { provide: Database, useValue: new Database(dataSource) },
      { provide: APP_CONFIG, useValue: config },
      { provide: LOGGER, useValue: createLogger('silent') },
      { provide: Metrics, useValue: NO_METRICS },
      { provide: ApiSettings, useValue: new ApiSettings(config, project) },
    ];
    return {
      module: Core,
      global: true,
      imports: [ProjectModule.forRoot(project)],
      providers,
      exports: [ProjectModule, ...providers.map((p) => p.provide)],
    };
  }

  async function boot(module: Type, project: ProjectDefinition = demoProject): Promise<unknown> {
    try {
      const compiled = await Test.createTestingModule({ imports: [core(project), module] }).compile();
      await compiled.init();
      await compiled.close();
      return 'booted';
    } catch (error) {
      return error;
    }
  }

  it('boots with the demo rules and roles', async () => {
    expect(await boot(LogicModule)).toBe('booted');
    expect(await boot(SecurityModule)).toBe('booted');
  });

  it('does not boot LogicModule with a rule the bank refuses', async () => {
    const bad = formula({ entity: Lineitem, attr: 'amount', uses: ['qty_ordered'], compute: (item) => item.qty_ordered });
    const error = await boot(LogicModule, { ...demoProject, rules: [...demoProject.rules!, bad] });
    expect(error).toBeInstanceOf(RuleBankError);
    expect((error as Error).message).toMatch(/lineitem\.amount is already derived by another rule/);
  });

  it('does not boot SecurityModule with a role the bank refuses', async () => {
    const roles = {
      globals: [],
      roles: [{ name: 'Broken', defaultAccess: 'NONE' as const, resources: { nothing: { access: ['READ' as const] } } }],
    };
    const error = await boot(SecurityModule, { ...demoProject, roles });
    expect(error).toBeInstanceOf(RoleBankError);
    expect((error as Error).message).toMatch(/role "Broken", resource "nothing": no such resource/);
  });
});
