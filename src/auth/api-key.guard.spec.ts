import { describe, expect, it, jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { apiRejectionOf } from '../../test/support/api-error-of.js';
import { endpointContext } from '../../test/support/execution-context.js';
import { AdminEndpoint } from '../admin-api/admin-endpoint.decorator.js';
import { ApiError } from '../common/api-error.js';
import { ApiSettings } from '../config/api-settings.js';
import { ErrorCode } from '../common/error-codes.js';
import { principalOf, type Principal } from '../common/principal.js';
import { Public } from '../common/public.decorator.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import type { ApiToken } from '../tokens/api-token.entity.js';
import { TokensService } from '../tokens/tokens.service.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { AuthService } from './auth.service.js';
import { Clock } from '../common/clock.js';

class Customers {
  list(): void {}
  @Public()
  status(): void {}
  @Public((config) => config.api.docsPublic)
  docs(): void {}
}

@Public()
class SystemEndpoints {
  health(): void {}
}

@AdminEndpoint()
class AdminUsers {
  list(): void {}
}

/** The token TokensService finds for the key `good-key`. */
const TOKEN = { id: 12, userIdentifier: 'sam', roles: ['Sales rep'], globals: { employee_id: 3 } } as unknown as ApiToken;
const SAMS_PRINCIPAL: Principal = { tokenId: 12, userIdentifier: 'sam', roleNames: ['Sales rep'], globals: { employee_id: 3 } };

interface Setup {
  /** The project's `permitAuthInUrl` (default false). */
  permitAuthInUrl?: boolean;
  env?: Record<string, string>;
  /** What TokensService.verify answers (default: TOKEN for `good-key`, 401 / 4011 for any other key). */
  verify?: (apikey: string) => Promise<ApiToken>;
}

const knownKeyOnly = (apikey: string): Promise<ApiToken> =>
  apikey === 'good-key'
    ? Promise.resolve(TOKEN)
    : Promise.reject(new ApiError(ErrorCode.TOKEN_INVALID, 'The auth token is unknown or disabled.'));

/**
 * ApiKeyGuard as Nest builds it: the real Reflector, the configuration from ConfigModule,
 * ApiSettings as AppModule provides it (a value built from the configuration and the project),
 * and a fake TokensService whose `verify` the test watches.
 */
async function setUp({ permitAuthInUrl = false, env = {}, verify = knownKeyOnly }: Setup = {}) {
  const config = loadConfig(env);
  const settings = new ApiSettings(config, { account: 'default', name: 'demo', versions: ['v1'], options: { permitAuthInUrl } });
  const tokens = { verify: jest.fn(verify), onForget: jest.fn() };
  const module = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config)],
    providers: [ApiKeyGuard, TokensService, Clock, { provide: AuthService, useValue: {} }, { provide: ApiSettings, useValue: settings }],
  })
    .overrideProvider(TokensService)
    .useValue(tokens)
    .compile();
  return { guard: module.get(ApiKeyGuard), verify: tokens.verify };
}

interface RequestLine {
  method?: string;
  url?: string;
  authorization?: string;
}

/** An Express request: the raw Node request itself. */
function expressRequest({ method = 'GET', url = '/rest/default/demo/v1/customers', authorization }: RequestLine = {}) {
  return { method, url, headers: authorization === undefined ? {} : { authorization } };
}

/** A Fastify request: its own object around the raw Node request, with the query as Fastify parsed it. */
function fastifyRequest(line: RequestLine = {}, query: Record<string, string> = {}) {
  const raw = expressRequest(line);
  return { raw, headers: raw.headers, query };
}

describe('ApiKeyGuard', () => {
  it('lets a public endpoint through without a key, and one the configuration makes public only while it does', async () => {
    const { guard, verify } = await setUp();
    await expect(guard.canActivate(endpointContext(Customers, Customers.prototype.status, expressRequest()))).resolves.toBe(true);
    await expect(guard.canActivate(endpointContext(SystemEndpoints, SystemEndpoints.prototype.health, expressRequest()))).resolves.toBe(
      true,
    );
    const docsPublic = await setUp({ env: { DOCS_PUBLIC: 'true' } });
    await expect(docsPublic.guard.canActivate(endpointContext(Customers, Customers.prototype.docs, expressRequest()))).resolves.toBe(true);
    const refused = await apiRejectionOf(guard.canActivate(endpointContext(Customers, Customers.prototype.docs, expressRequest())));
    expect(refused.errorCode).toBe(4010);
    expect(verify).not.toHaveBeenCalled();
    expect(docsPublic.verify).not.toHaveBeenCalled();
  });

  it('leaves the admin API to its own guard, with or without a key', async () => {
    const { guard, verify } = await setUp();
    for (const request of [expressRequest(), expressRequest({ authorization: 'Bearer admin-key' })]) {
      await expect(guard.canActivate(endpointContext(AdminUsers, AdminUsers.prototype.list, request))).resolves.toBe(true);
      expect(principalOf(request)).toBeUndefined();
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('answers 401 / 4010 to a request without a key, or whose Authorization header is meant for someone else', async () => {
    const { guard, verify } = await setUp();
    for (const request of [expressRequest(), expressRequest({ authorization: 'Basic dXNlcjpwdw==' }), fastifyRequest()]) {
      const refused = await apiRejectionOf(guard.canActivate(endpointContext(Customers, Customers.prototype.list, request)));
      expect(refused.statusCode).toBe(401);
      expect(refused.errorCode).toBe(4010);
      expect(refused.message).toMatch(/Authorization: CALiveAPICreator <key>:1/);
      expect(principalOf(request)).toBeUndefined();
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('verifies the key of Authorization: CALiveAPICreator <key>:1 and makes its token the principal, on both adapters', async () => {
    const { guard, verify } = await setUp();
    const authorization = 'CALiveAPICreator good-key:1';
    for (const request of [expressRequest({ authorization }), fastifyRequest({ authorization })]) {
      await expect(guard.canActivate(endpointContext(Customers, Customers.prototype.list, request))).resolves.toBe(true);
      expect(principalOf(request)).toEqual(SAMS_PRINCIPAL);
    }
    expect(verify.mock.calls).toEqual([['good-key'], ['good-key']]);
  });

  it('passes a refusal of TokensService.verify on unchanged, and sets no principal', async () => {
    const expired = new ApiError(ErrorCode.TOKEN_EXPIRED, 'The auth token has expired.');
    const { guard, verify } = await setUp({ verify: () => Promise.reject(expired) });
    const request = expressRequest({ authorization: 'CALiveAPICreator old-key:1' });
    await expect(guard.canActivate(endpointContext(Customers, Customers.prototype.list, request))).rejects.toBe(expired);
    expect(verify).toHaveBeenCalledWith('old-key');
    expect(principalOf(request)).toBeUndefined();
  });

  it('takes the key from ?auth= on a GET when the project permits it, and refuses it with 401 / 4014 otherwise', async () => {
    const permitted = await setUp({ permitAuthInUrl: true });
    const url = '/rest/default/demo/v1/customers?pagesize=2&auth=good-key:1';
    for (const request of [expressRequest({ url }), fastifyRequest({ url }, { pagesize: '2', auth: 'good-key:1' })]) {
      await expect(permitted.guard.canActivate(endpointContext(Customers, Customers.prototype.list, request))).resolves.toBe(true);
      expect(principalOf(request)).toEqual(SAMS_PRINCIPAL);
    }
    expect(permitted.verify.mock.calls).toEqual([['good-key'], ['good-key']]);

    const post = await apiRejectionOf(
      permitted.guard.canActivate(endpointContext(Customers, Customers.prototype.list, expressRequest({ method: 'POST', url }))),
    );
    expect(post.errorCode).toBe(4014);

    const forbidden = await setUp({ permitAuthInUrl: false });
    const refused = await apiRejectionOf(
      forbidden.guard.canActivate(endpointContext(Customers, Customers.prototype.list, expressRequest({ url }))),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.errorCode).toBe(4014);
    expect(forbidden.verify).not.toHaveBeenCalled();
  });

  it('counts a key in the URL only under the exact name auth, whatever the adapter parsed', async () => {
    const { guard, verify } = await setUp({ permitAuthInUrl: true });
    for (const name of ['AUTH', '%61uth', 'auth[]', 'authx']) {
      const url = `/rest/default/demo/v1/customers?${name}=good-key:1`;
      // Fastify's parser decodes names: it hands `%61uth` over as `auth`, which must not count.
      for (const request of [expressRequest({ url }), fastifyRequest({ url }, { auth: 'good-key:1' })]) {
        const refused = await apiRejectionOf(guard.canActivate(endpointContext(Customers, Customers.prototype.list, request)));
        expect(refused.errorCode).toBe(4010);
      }
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('leaves anything but HTTP alone', async () => {
    const { guard, verify } = await setUp();
    for (const type of ['rpc', 'ws'] as const) {
      await expect(guard.canActivate(endpointContext(Customers, Customers.prototype.list, { headers: {} }, type))).resolves.toBe(true);
    }
    expect(verify).not.toHaveBeenCalled();
  });
});
