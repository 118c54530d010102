import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { IS_ADMIN_API, REQUIRED_ADMIN_ROLE } from '../../src/admin-api/admin-endpoint.decorator.js';
import type { AdminRole } from '../../src/admin-api/admin-principal.js';
import { IS_PUBLIC } from '../../src/common/public.decorator.js';
import type { TestApp } from './test-app.js';

/** One admin API endpoint as its decorators declare it. */
export interface AdminEndpointInfo {
  /** e.g. `PATCH /admin/v1/admins/:username` */
  route: string;
  /** The least role it needs (`admin` unless marked); undefined for a public one (the login). */
  role: AdminRole | undefined;
}

/**
 * Every endpoint of every `@AdminEndpoint()` controller the app has, read from the decorators,
 * so a suite can check that its list of endpoints is complete.
 */
export function adminEndpointsOf(t: TestApp): AdminEndpointInfo[] {
  const found: AdminEndpointInfo[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype;
      if (!controller || Reflect.getMetadata(IS_ADMIN_API, controller) !== true) continue;
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const path = [base, Reflect.getMetadata(PATH_METADATA, handler) as string].join('/').replace(/\/+/g, '/').replace(/\/$/, '');
        const isPublic = (Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, controller)) !== undefined;
        const role = (Reflect.getMetadata(REQUIRED_ADMIN_ROLE, handler) ??
          Reflect.getMetadata(REQUIRED_ADMIN_ROLE, controller) ??
          'admin') as AdminRole;
        found.push({ route: `${method} /${path.replace(/^\//, '')}`, role: isPublic ? undefined : role });
      }
    }
  }
  return found;
}
