import { adminHeader } from './support/auth.js';
import { describeEachTarget, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the admin OpenAPI document, walked by path
type Json = Record<string, any>;
type Body = Record<string, unknown>;

const TARGET_USER = 'null-fields-user';
const TARGET_ADMIN = 'null-fields-admin';
const SELF_ADMIN = 'null-fields-self';
const PASSWORD = 'Null-Fields-Pass1';

/**
 * A body each admin write operation takes (`n` keeps created names apart): every case changes one
 * field of it, so that only that field can be what is refused, and a field whose null has a meaning
 * is seen to have it. A write operation the document lists and this does not fails the suite.
 */
const VALID_BODIES: Record<string, (n: number) => Body> = {
  'post /admin/v1/@authentication': () => ({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD }),
  'put /admin/v1/@me/password': () => ({ password: PASSWORD, newPassword: `${PASSWORD}-new` }),
  'post /admin/v1/admins': (n) => ({ username: `null-fields-admin-${n}`, password: PASSWORD, role: 'auditor' }),
  'patch /admin/v1/admins/{username}': () => ({ role: 'auditor' }),
  'put /admin/v1/admins/{username}/password': () => ({ password: PASSWORD }),
  'post /admin/v1/users': (n) => ({ login: `null-fields-user-${n}`, password: PASSWORD }),
  'patch /admin/v1/users/{login}': () => ({}),
  'put /admin/v1/users/{login}/password': () => ({ password: PASSWORD }),
  'post /admin/v1/tokens': (n) => ({ label: `null fields ${n}` }),
};

const PATH_VALUES: Record<string, string> = { login: TARGET_USER, username: TARGET_ADMIN };

/** The request body schema of an operation, its `$ref` followed. */
function bodySchema(doc: Json, method: string, path: string): Json {
  const schema = doc.paths[path][method].requestBody.content['application/json'].schema as Json;
  const ref = schema.$ref as string | undefined;
  return ref === undefined
    ? schema
    : ref
        .slice(2)
        .split('/')
        .reduce<Json>((node, key) => node[key] as Json, doc);
}

function typesOf(schema: Json): string[] {
  return schema.type === undefined ? [] : [schema.type as string | string[]].flat();
}

/** A value of the wrong JSON type for `schema`: a number for a string, a string for an array, an array for an object. */
function wrongTypeFor(schema: Json): unknown {
  const type = typesOf(schema).find((t) => t !== 'null');
  switch (type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return '12';
    case 'boolean':
      return 'true';
    case 'array':
      return 'x';
    case 'object':
      return ['x'];
    default:
      // An enum without a type (`@IsIn`): its values are strings.
      return 12345;
  }
}

interface FieldCase {
  field: string;
  value: unknown;
  /** The document says null is a value the field takes. */
  nullMeans: boolean;
}

/** The cases of one body schema: null and a wrong type for every field; for arrays, a null and a wrong-typed item. */
function casesOf(schema: Json): FieldCase[] {
  return Object.entries(schema.properties as Record<string, Json>).flatMap(([field, property]) => {
    const cases: FieldCase[] = [
      { field, value: null, nullMeans: typesOf(property).includes('null') },
      { field, value: wrongTypeFor(property), nullMeans: false },
    ];
    if (typesOf(property).includes('array') && property.items) {
      cases.push({ field, value: [null], nullMeans: false }, { field, value: [wrongTypeFor(property.items as Json)], nullMeans: false });
    }
    return cases;
  });
}

describeEachTarget('admin API: null and wrongly typed fields', (target) => {
  let t: TestApp;
  let doc: Json;
  let admin: [string, string];
  let self: [string, string];
  let created = 0;

  suiteApp(target, {}, async (app) => {
    t = app;
    admin = await adminHeader(t);
    doc = (await t.http().get('/admin/v1/openapi.json').expect(200)).body as Json;
    const setup: Array<[string, Body]> = [
      ['/admin/v1/users', { login: TARGET_USER, password: PASSWORD, email: 'null@example.com', keyLifetimeSeconds: 600 }],
      ['/admin/v1/admins', { username: TARGET_ADMIN, password: PASSWORD, role: 'auditor' }],
      ['/admin/v1/admins', { username: SELF_ADMIN, password: PASSWORD, role: 'auditor' }],
    ];
    for (const [path, body] of setup)
      await t
        .http()
        .post(path)
        .set(...admin)
        .send(body)
        .expect(201);
    const selfKey = (await t.http().post('/admin/v1/@authentication').send({ username: SELF_ADMIN, password: PASSWORD }).expect(200)).body
      .apikey as string;
    self = ['Authorization', `Bearer ${selfKey}`];
  });

  /** The admin document's operations that take a body. */
  function writeOperations(): string[] {
    return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([, operation]) => (operation as Json).requestBody !== undefined)
        .map(([method]) => `${method} ${path}`),
    );
  }

  it('has a valid body for every admin operation that takes one, and finds fields in each', () => {
    expect(writeOperations().sort()).toEqual(Object.keys(VALID_BODIES).sort());
    for (const operation of writeOperations()) {
      const [method, path] = operation.split(' ') as [string, string];
      expect({ operation, fields: casesOf(bodySchema(doc, method, path)).length > 0 }).toEqual({ operation, fields: true });
    }
  });

  it.each(Object.keys(VALID_BODIES))(
    '%s: a null or wrongly typed field is 400 / 4000 naming it, unless null has a documented meaning',
    async (operation) => {
      const [method, path] = operation.split(' ') as ['post' | 'put' | 'patch', string];
      const success = Number(Object.keys(doc.paths[path][method].responses as Json).find((status) => status.startsWith('2')));
      const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => PATH_VALUES[name]!);
      const cases = casesOf(bodySchema(doc, method, path));
      const wrong: Json[] = [];
      for (const { field, value, nullMeans } of cases) {
        const body = { ...VALID_BODIES[operation]!(created++), [field]: value };
        const res = await t
          .http()
          [method](url)
          .set(...(path.startsWith('/admin/v1/@me') ? self : admin))
          .send(body);
        const seen = { field, value, status: res.status, errorCode: res.body?.errorCode, errorMessage: res.body?.errorMessage };
        if (nullMeans) {
          // The documented meaning: taken, and shown as null where the answer shows the field.
          const shown = res.body !== null && typeof res.body === 'object' && field in res.body ? res.body[field] : null;
          if (res.status !== success || shown !== null) wrong.push({ ...seen, shown });
        } else if (res.status !== 400 || res.body.errorCode !== 4000 || !new RegExp(`\\b${field}\\b`).test(String(res.body.errorMessage))) {
          wrong.push(seen);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it("clears a user's email and key lifetime with null, one at a time, and leaves the other fields be", async () => {
    const patch = async (body: Body): Promise<Json> =>
      (
        await t
          .http()
          .patch(`/admin/v1/users/${TARGET_USER}`)
          .set(...admin)
          .send(body)
          .expect(200)
      ).body as Json;
    await patch({ email: 'back@example.com', keyLifetimeSeconds: 60, roles: ['Read only'], globals: { region: 'north' } });
    const kept = { roles: ['Read only'], globals: { region: 'north' }, active: true };
    expect(await patch({ email: null })).toMatchObject({ ...kept, email: null, keyLifetimeSeconds: 60 });
    expect(await patch({ keyLifetimeSeconds: null })).toMatchObject({ ...kept, email: null, keyLifetimeSeconds: null });
  });
});
