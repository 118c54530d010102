import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ContextType, ExecutionContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { apiErrorOf } from '../../test/support/api-error-of.js';
import { endpointContext } from '../../test/support/execution-context.js';
import { AdminEndpoint, AdminRoleRequired } from '../admin-api/admin-endpoint.decorator.js';
import { setAdmin, type AdminRole } from '../admin-api/admin-principal.js';
import { Public } from '../common/public.decorator.js';
import { loadConfig, type AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { RolesGuard } from './roles.guard.js';
import { SecurityService } from './security.service.js';

@AdminEndpoint()
class Unmarked {
  write(): void {}
  @AdminRoleRequired('auditor')
  read(): void {}
  @Public()
  login(): void {}
  @Public((config) => config.api.docsPublic)
  docs(): void {}
}

@AdminEndpoint()
@AdminRoleRequired('auditor')
class ReadOnly {
  list(): void {}
  @AdminRoleRequired('admin')
  change(): void {}
}

/**
 * RolesGuard as Nest builds it (the real Reflector, the configuration from ConfigModule). Admin
 * endpoints never reach the resource side of the guard, which SecurityService and
 * ResourceRegistry would serve: empty fakes stand in for them.
 */
async function rolesGuard(config: AppConfig = loadConfig({})): Promise<RolesGuard> {
  const module = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config)],
    providers: [RolesGuard, SecurityService, ResourceRegistry],
  })
    .overrideProvider(SecurityService)
    .useValue({})
    .overrideProvider(ResourceRegistry)
    .useValue({})
    .compile();
  return module.get(RolesGuard);
}

let built: RolesGuard;
beforeEach(async () => {
  built = await rolesGuard();
});

/** The guard of the test at hand, on the default configuration (a fresh testing module each test). */
function guard(): RolesGuard {
  return built;
}

/** A request to `controller.handler` made by an admin with this role (or by nobody). */
function contextOf(controller: Type, handler: () => void, role?: string, type: ContextType = 'http'): ExecutionContext {
  const request = { headers: {} };
  if (role !== undefined) setAdmin(request, { username: 'someone', role: role as AdminRole, tokenId: 1 });
  return endpointContext(controller, handler, request, type);
}

describe('RolesGuard on admin endpoints', () => {
  it('asks for the role admin where an endpoint says nothing: an auditor gets 403 / 4030', () => {
    expect(guard().canActivate(contextOf(Unmarked, Unmarked.prototype.write, 'admin'))).toBe(true);
    const refused = apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.write, 'auditor')));
    expect(refused.errorCode).toBe(4030);
    expect(refused.message).toMatch(/"admin".*"auditor"/);
  });

  it('opens an endpoint marked auditor to both roles, by method or by controller', () => {
    for (const role of ['admin', 'auditor']) {
      expect(guard().canActivate(contextOf(Unmarked, Unmarked.prototype.read, role))).toBe(true);
      expect(guard().canActivate(contextOf(ReadOnly, ReadOnly.prototype.list, role))).toBe(true);
    }
  });

  it("lets a method's mark override its controller's", () => {
    expect(guard().canActivate(contextOf(ReadOnly, ReadOnly.prototype.change, 'admin'))).toBe(true);
    expect(apiErrorOf(() => guard().canActivate(contextOf(ReadOnly, ReadOnly.prototype.change, 'auditor'))).errorCode).toBe(4030);
  });

  it('refuses a role it does not know, even on an auditor endpoint', () => {
    expect(apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.read, 'root'))).errorCode).toBe(4030);
    expect(apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.write, 'Admin'))).errorCode).toBe(4030);
    // Names an object literal inherits must not count as ranks.
    expect(apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.write, 'toString'))).errorCode).toBe(4030);
  });

  it('answers 401 / 4010 when no admin token was resolved', () => {
    expect(apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.read))).errorCode).toBe(4010);
  });

  it('asks nothing of a public endpoint, and of one the configuration makes public only while it does', async () => {
    const docsPublic = await rolesGuard(loadConfig({ DOCS_PUBLIC: 'true' }));
    expect(guard().canActivate(contextOf(Unmarked, Unmarked.prototype.login))).toBe(true);
    expect(docsPublic.canActivate(contextOf(Unmarked, Unmarked.prototype.docs))).toBe(true);
    expect(apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.docs))).errorCode).toBe(4010);
    expect(apiErrorOf(() => guard().canActivate(contextOf(Unmarked, Unmarked.prototype.docs, 'auditor'))).errorCode).toBe(4030);
  });

  it('leaves anything but HTTP alone', () => {
    expect(guard().canActivate(contextOf(Unmarked, Unmarked.prototype.write, 'auditor', 'rpc'))).toBe(true);
  });
});
