import { Module, type DynamicModule } from '@nestjs/common';
import { Metrics } from '../observability/metrics.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { LogicEngine } from './logic-engine.js';
import { RuleBank } from './rule-bank.js';
import type { Rule } from './rule-dsl.js';

/**
 * The project's business logic: the rule bank checked at boot (a bad rule stops the start)
 * and the engine every write goes through.
 */
@Module({})
export class LogicModule {
  static forRoot(project: { rules?: readonly Rule[] }): DynamicModule {
    return {
      module: LogicModule,
      global: true,
      providers: [
        {
          provide: RuleBank,
          useFactory: (registry: ResourceRegistry, metrics: Metrics) => new RuleBank(registry, project.rules ?? [], metrics),
          inject: [ResourceRegistry, Metrics],
        },
        LogicEngine,
      ],
      exports: [RuleBank, LogicEngine],
    };
  }
}
