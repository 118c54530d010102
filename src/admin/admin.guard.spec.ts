import { describe, expect, it, jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { apiRejectionOf } from '../../test/support/api-error-of.js';
import { endpointContext } from '../../test/support/execution-context.js';
import { AdminEndpoint } from '../admin-api/admin-endpoint.decorator.js';
import { adminOf, type AdminPrincipal } from '../admin-api/admin-principal.js';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { Public } from '../common/public.decorator.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { AdminAccountsService } from './admin-accounts.service.js';
import { AdminGuard } from './admin.guard.js';

@AdminEndpoint()
class Admins {
  list(): void {}
  @Public()
  login(): void {}
  @Public((config) => config.api.docsPublic)
  docs(): void {}
}

/** An endpoint of the data API: ApiKeyGuard's business, not this guard's. */
class Customers {
  list(): void {}
}

/** The admin AdminAccountsService finds for the key `admin-key`. */
const ALICE: AdminPrincipal = { username: 'alice', role: 'auditor', tokenId: 5 };

const knownKeyOnly = (apikey: string): Promise<AdminPrincipal> =>
  apikey === 'admin-key' ? Promise.resolve(ALICE) : Promise.reject(new ApiError(ErrorCode.TOKEN_INVALID, 'The admin token is unknown.'));

/**
 * AdminGuard as Nest builds it: the real Reflector, the configuration from ConfigModule, and a
 * fake AdminAccountsService whose `verify` the test watches.
 */
async function setUp({
  env = {},
  verify = knownKeyOnly,
}: { env?: Record<string, string>; verify?: (apikey: string) => Promise<AdminPrincipal> } = {}) {
  const accounts = { verify: jest.fn(verify) };
  const module = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(loadConfig(env))],
    providers: [AdminGuard, AdminAccountsService],
  })
    .overrideProvider(AdminAccountsService)
    .useValue(accounts)
    .compile();
  return { guard: module.get(AdminGuard), verify: accounts.verify };
}

/** An Express request (the raw Node request itself) to the admin API. */
function expressRequest(authorization?: string, url = '/admin/v1/admins') {
  return { method: 'GET', url, headers: authorization === undefined ? {} : { authorization } };
}

/** A Fastify request: its own object around the raw Node request. */
function fastifyRequest(authorization?: string) {
  const raw = expressRequest(authorization);
  return { raw, headers: raw.headers, query: {} };
}

describe('AdminGuard', () => {
  it('leaves endpoints outside the admin API alone, whatever they carry', async () => {
    const { guard, verify } = await setUp();
    for (const request of [expressRequest(), expressRequest('Bearer admin-key')]) {
      await expect(guard.canActivate(endpointContext(Customers, Customers.prototype.list, request))).resolves.toBe(true);
      expect(adminOf(request)).toBeUndefined();
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('lets a public admin endpoint through without a token, and one the configuration makes public only while it does', async () => {
    const { guard, verify } = await setUp();
    await expect(guard.canActivate(endpointContext(Admins, Admins.prototype.login, expressRequest()))).resolves.toBe(true);
    const docsPublic = await setUp({ env: { DOCS_PUBLIC: 'true' } });
    await expect(docsPublic.guard.canActivate(endpointContext(Admins, Admins.prototype.docs, expressRequest()))).resolves.toBe(true);
    expect((await apiRejectionOf(guard.canActivate(endpointContext(Admins, Admins.prototype.docs, expressRequest())))).errorCode).toBe(
      4010,
    );
    expect(verify).not.toHaveBeenCalled();
    expect(docsPublic.verify).not.toHaveBeenCalled();
  });

  it('answers 401 / 4010 without an admin token in the header: another scheme, or a key in the URL, is none', async () => {
    const { guard, verify } = await setUp();
    const requests = [
      expressRequest(),
      expressRequest('Basic YWRtaW46cHc='),
      expressRequest(undefined, '/admin/v1/admins?auth=admin-key'),
      fastifyRequest(),
    ];
    for (const request of requests) {
      const refused = await apiRejectionOf(guard.canActivate(endpointContext(Admins, Admins.prototype.list, request)));
      expect(refused.statusCode).toBe(401);
      expect(refused.errorCode).toBe(4010);
      expect(refused.message).toMatch(/Authorization: Bearer <key>/);
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('verifies the key of Authorization: Bearer <key> and makes its account the admin, on both adapters', async () => {
    const { guard, verify } = await setUp();
    for (const request of [expressRequest('Bearer admin-key'), fastifyRequest('Bearer admin-key')]) {
      await expect(guard.canActivate(endpointContext(Admins, Admins.prototype.list, request))).resolves.toBe(true);
      expect(adminOf(request)).toEqual(ALICE);
    }
    expect(verify.mock.calls).toEqual([['admin-key'], ['admin-key']]);
  });

  it("passes AdminAccountsService's refusal of an unknown or expired token on unchanged, and sets no admin", async () => {
    for (const refusal of [
      new ApiError(ErrorCode.TOKEN_INVALID, 'The admin token is unknown.'),
      new ApiError(ErrorCode.TOKEN_EXPIRED, 'The admin token has expired.'),
    ]) {
      const { guard, verify } = await setUp({ verify: () => Promise.reject(refusal) });
      const request = expressRequest('Bearer stale-key');
      await expect(guard.canActivate(endpointContext(Admins, Admins.prototype.list, request))).rejects.toBe(refusal);
      expect(verify).toHaveBeenCalledWith('stale-key');
      expect(adminOf(request)).toBeUndefined();
    }
  });

  it('leaves anything but HTTP alone', async () => {
    const { guard, verify } = await setUp();
    for (const type of ['rpc', 'ws'] as const) {
      await expect(guard.canActivate(endpointContext(Admins, Admins.prototype.list, { headers: {} }, type))).resolves.toBe(true);
    }
    expect(verify).not.toHaveBeenCalled();
  });
});
