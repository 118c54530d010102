import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { CanActivate, ExecutionContext, INestApplication } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AdminGuard } from '../admin/admin.guard.js';
import { setAdmin, type AdminPrincipal } from '../admin-api/admin-principal.js';
import { AUDIT_TRAIL, type AuditedChange, type AuditTrail } from '../admin-api/audit-trail.js';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { ApiSettings } from '../config/api-settings.js';
import { loadConfig } from '../config/app-config.js';
import type { DatabaseScope } from '../database/database.js';
import { AllExceptionsFilter } from '../http/all-exceptions.filter.js';
import { createLogger, LOGGER } from '../observability/logger.js';
import { KnownRoles } from '../security/known-roles.js';
import { UsersService } from '../users/users.service.js';
import { ApiToken } from './api-token.entity.js';
import { tokenStatus } from './token-status.js';
import { TokensController } from './tokens.controller.js';
import { TokensService, type FoundToken, type IssueTokenInput } from './tokens.service.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const ALICE: AdminPrincipal = { username: 'alice', role: 'admin', tokenId: 3 };
/** The transaction the audit trail runs a change in: the change must be made in it. */
const AUDIT_TX = { transaction: 'of the audit trail' } as unknown as DatabaseScope;

/**
 * Stands in for AdminGuard, as the app places it (a global guard, `APP_GUARD` → `useExisting`):
 * the key `alice-key` is the admin alice; any other request is refused as AdminGuard refuses
 * one without a token.
 */
const fakeAdminGuard: CanActivate = {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    if (req.headers.authorization !== 'Bearer alice-key') throw new ApiError(ErrorCode.NO_TOKEN, 'An admin token is required');
    setAdmin(req, ALICE);
    return true;
  },
};

/** TokensService over a Map: issues, finds, lists, disables and deletes, and says which it was asked to. */
function fakeTokens() {
  const rows = new Map<number, ApiToken>();
  const chosenKeys = new Set<string>();
  const found = (token: ApiToken): FoundToken => ({ token, status: tokenStatus(token, NOW) });
  return {
    rows,
    status: (token: ApiToken) => tokenStatus(token, NOW),
    issue: jest.fn(async (input: IssueTokenInput, _scope?: DatabaseScope) => {
      const id = rows.size + 1;
      const { label, userIdentifier, roles, globals, expiration, origin } = input;
      const token = Object.assign(new ApiToken(), { id, label, userIdentifier, roles, globals, expiration, origin });
      rows.set(id, Object.assign(token, { userInfo: null, disabled: false, disabledAt: null, createdAt: NOW, lastUsedAt: null }));
      if (input.key !== undefined) chosenKeys.add(input.key);
      return { token, apikey: input.key ?? `generated-key-${id}` };
    }),
    existsWithKey: async (key: string) => chosenKeys.has(key),
    findById: async (id: number) => (rows.has(id) ? found(rows.get(id)!) : undefined),
    list: jest.fn(async (offset: number, limit: number): Promise<[FoundToken[], number]> => {
      return [[...rows.values()].slice(offset, offset + limit).map(found), rows.size];
    }),
    disable: jest.fn(async (id: number, _scope?: DatabaseScope) => {
      rows.get(id)!.disabled = true;
    }),
    delete: jest.fn(async (id: number, _scope?: DatabaseScope) => {
      rows.delete(id);
    }),
    forgetCachedTokens: jest.fn(),
  };
}

/**
 * TokensController alone over HTTP (Express), with what it injects faked, the real exception
 * filter, and the admin guard registered as the app registers it, then replaced through
 * `overrideProvider(AdminGuard)`. (`overrideGuard` reaches only guards a controller names with
 * `@UseGuards`; Tessera's are global, so Nest replaces them as providers.)
 */
describe('TokensController, behind a stand-in admin guard', () => {
  let app: INestApplication;
  const tokens = fakeTokens();
  const audited: Array<{ admin: string } & Omit<AuditedChange<unknown>, 'result'>> = [];
  const audit: AuditTrail = {
    async change<T>(admin: string, work: (tx: DatabaseScope) => Promise<AuditedChange<T>>): Promise<T> {
      const { result, ...entry } = await work(AUDIT_TX);
      audited.push({ admin, ...entry });
      return result;
    },
  };
  const users = { findByLogin: async (login: string) => (login === 'demo' ? { login } : undefined) };
  const config = loadConfig({ PAGE_SIZE_DEFAULT: '2', PAGE_SIZE_MAX: '3' });

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      controllers: [TokensController],
      providers: [
        { provide: TokensService, useValue: tokens },
        { provide: UsersService, useValue: users },
        { provide: AUDIT_TRAIL, useValue: audit },
        { provide: ApiSettings, useValue: new ApiSettings(config, { account: 'default', name: 'demo', versions: ['v1'], options: {} }) },
        { provide: KnownRoles, useValue: new KnownRoles({ globals: [], roles: [{ name: 'Full access', defaultAccess: 'ALL' }] }) },
        { provide: LOGGER, useValue: createLogger('silent') },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        AdminGuard,
        { provide: APP_GUARD, useExisting: AdminGuard },
      ],
    })
      .overrideProvider(AdminGuard)
      .useValue(fakeAdminGuard)
      .compile();
    app = module.createNestApplication();
    await app.init();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    audited.length = 0;
    jest.clearAllMocks();
  });

  const as = (key?: string) => {
    const http = request(app.getHttpServer());
    const authorized = (req: request.Test) => (key === undefined ? req : req.set('Authorization', `Bearer ${key}`));
    return {
      get: (path: string) => authorized(http.get(`/admin/v1/tokens${path}`)),
      post: (path: string, body?: object) => authorized(http.post(`/admin/v1/tokens${path}`)).send(body),
      delete: (path: string) => authorized(http.delete(`/admin/v1/tokens${path}`)),
    };
  };

  it('answers nothing to a request the guard refuses: 401 / 4010, and the handler never runs', async () => {
    const res = await as().get('').expect(401);
    expect(res.body).toEqual({ statusCode: 401, errorCode: 4010, errorMessage: 'An admin token is required' });
    await as('someone-else').post('', { label: 'x' }).expect(401);
    expect(tokens.list).not.toHaveBeenCalled();
    expect(tokens.issue).not.toHaveBeenCalled();
  });

  it('creates a token by hand in the audit trail’s transaction, under the admin the guard let in; the key only in this answer', async () => {
    const body = { label: 'nightly export', roles: ['Full access'], expiration: '2030-06-01T00:00:00Z' };
    const res = await as('alice-key').post('', body).expect(201);
    expect(res.body).toEqual({
      id: 1,
      label: 'nightly export',
      userIdentifier: null,
      roles: ['Full access'],
      globals: {},
      origin: 'manual',
      status: 'active',
      expiration: '2030-06-01T00:00:00.000Z',
      created: '2030-01-01T00:00:00.000Z',
      lastUsed: null,
      apikey: 'generated-key-1',
    });
    expect(tokens.issue).toHaveBeenCalledWith(
      {
        key: undefined,
        label: 'nightly export',
        userIdentifier: null,
        roles: ['Full access'],
        globals: {},
        expiration: Date.parse(body.expiration),
        origin: 'manual',
      },
      AUDIT_TX,
    );
    expect(audited).toEqual([
      {
        admin: 'alice',
        action: 'token.create',
        target: 'token:1',
        detail: { label: 'nightly export', roles: ['Full access'], expiration: body.expiration, keyChosen: false },
      },
    ]);
    const listed = await as('alice-key').get('/1').expect(200);
    expect(listed.body).not.toHaveProperty('apikey');
  });

  it.each([
    ['a userIdentifier that is a user’s login', { label: 'x', userIdentifier: 'demo' }, /userIdentifier "demo" is a user's login/],
    ['a role the project does not define', { label: 'x', roles: ['Superuser'] }, /Unknown role\(s\): "Superuser"/],
    ['a field the DTO does not have', { label: 'x', owner: 'alice' }, /owner/],
  ])('refuses %s with 400 / 4000; nothing issued, nothing audited', async (_what, body, message) => {
    const res = await as('alice-key').post('', body).expect(400);
    expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.stringMatching(message) });
    expect(tokens.issue).not.toHaveBeenCalled();
    expect(audited).toEqual([]);
  });

  it('lists a page no longer than PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT when the client names none', async () => {
    for (const label of ['b', 'c', 'd']) await as('alice-key').post('', { label }).expect(201);
    const page = await as('alice-key').get('?offset=1&pagesize=50').expect(200);
    expect(tokens.list).toHaveBeenLastCalledWith(1, 3);
    expect(page.body).toMatchObject({ offset: 1, pagesize: 3, total: tokens.rows.size });
    expect(page.body.items.map((t: { id: number }) => t.id)).toEqual([2, 3, 4]);
    await as('alice-key').get('').expect(200);
    expect(tokens.list).toHaveBeenLastCalledWith(0, 2);
  });

  it('disables a token under the admin’s name and answers it as it is after the commit', async () => {
    const res = await as('alice-key').post('/2/disable').expect(200);
    expect(res.body).toMatchObject({ id: 2, status: 'disabled' });
    expect(tokens.disable).toHaveBeenCalledWith(2, AUDIT_TX);
    expect(audited).toEqual([{ admin: 'alice', action: 'token.disable', target: 'token:2' }]);
    // Forgotten again after the commit: a request in between may have cached the row as it was.
    expect(tokens.forgetCachedTokens).toHaveBeenCalledTimes(1);
    expect(tokens.forgetCachedTokens.mock.invocationCallOrder[0]).toBeGreaterThan(tokens.disable.mock.invocationCallOrder[0]!);
  });

  it('takes a chosen key once; the same key again is 409 / 4091, and nothing more is issued', async () => {
    const key = 'a-chosen-key-0123456789';
    const res = await as('alice-key').post('', { label: 'chosen', key }).expect(201);
    expect(res.body).toMatchObject({ label: 'chosen', apikey: key });
    expect(audited).toEqual([expect.objectContaining({ action: 'token.create', detail: expect.objectContaining({ keyChosen: true }) })]);
    const again = await as('alice-key').post('', { label: 'chosen again', key }).expect(409);
    expect(again.body).toEqual({ statusCode: 409, errorCode: 4091, errorMessage: expect.stringContaining('already exists') });
    expect(tokens.issue).toHaveBeenCalledTimes(1);
    expect(audited).toHaveLength(1);
  });

  it('answers 404 / 4040 for a token that does not exist, and audits nothing; 400 / 4000 for an id that is not a number', async () => {
    for (const res of [await as('alice-key').post('/99/disable'), await as('alice-key').delete('/99')]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, errorCode: 4040, errorMessage: 'No token 99.' });
    }
    expect((await as('alice-key').get('/first')).body).toMatchObject({ statusCode: 400, errorCode: 4000 });
    expect(tokens.disable).not.toHaveBeenCalled();
    expect(tokens.delete).not.toHaveBeenCalled();
    expect(audited).toEqual([]);
  });
});
