import { Module } from '@nestjs/common';
import { DataModule } from '../data/data.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { Metrics } from '../observability/metrics.js';
import { LogicEngine } from './logic-engine.js';
import { RuleBank } from './rule-bank.js';
import type { Rule } from './rule-dsl.js';

/** Injection token of the project's rules (ProjectModule provides it). */
export const PROJECT_RULES = Symbol('PROJECT_RULES');

/**
 * The project's business logic: the rule bank checked at boot (a bad rule stops the start)
 * and the engine every write goes through.
 */
@Module({
  imports: [DataModule],
  providers: [
    {
      provide: RuleBank,
      useFactory: (registry: ResourceRegistry, metrics: Metrics, rules: readonly Rule[]) => new RuleBank(registry, rules, metrics),
      inject: [ResourceRegistry, Metrics, PROJECT_RULES],
    },
    LogicEngine,
  ],
  exports: [RuleBank, LogicEngine],
})
export class LogicModule {}
