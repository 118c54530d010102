import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { SystemController } from './system.controller.js';

@Module({ controllers: [SystemController, HealthController, MetricsController] })
export class SystemModule {}
