import { applyDecorators, UseGuards, UsePipes, ValidationPipe } from '@nestjs/common';
import { AdminApi } from '../common/admin-api.decorator.js';
import { AdminGuard } from './admin.guard.js';

/**
 * Every admin API controller: admin tokens instead of API tokens, and bodies and queries
 * checked against their DTO, unknown fields refused (400 / 4000).
 */
export const AdminEndpoint = (): ClassDecorator =>
  applyDecorators(
    AdminApi(),
    UseGuards(AdminGuard),
    UsePipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true })),
  );
