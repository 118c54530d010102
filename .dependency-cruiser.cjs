/**
 * Dependency rules: the layers of the architecture notes (shared/design/architecture.md,
 * "Dependencies point one way"), checked on the real import graph by `npm run lint:deps` (and
 * `npm run lint`). The same picture is in the README ("Code checks"):
 *
 *   main.ts ──> project/ ──> demo/       (and ormconfig.ts; nothing else imports project/ or demo/)
 *   main.ts ──> bootstrap.ts ──> app.module.ts, schema.ts, project-definition.ts (the root)
 *   root      ──> every module
 *   resources ──> documents, security, logic, data  (HTTP stops here; no SQL, no role filters)
 *   documents ──> security, logic, data  (one reader and one writer for every resource)
 *   auth      ──> tokens, provider, users, login
 *   admin     ──> tokens, login, admin-api
 *   tokens    ──> users, security, data, admin-api
 *   provider  ──> users, login, admin-api
 *   users     ──> security, login, admin-api
 *   security  ──> logic (the row-policy contract), admin-api, data
 *   logic     ──> data
 *   resources, auth, admin, system ──> http   (the edge: request context, client address, …)
 *   data, login, admin-api, http, system ──> database ──> observability ──> common ──> config
 *   every layer above common ──> observability (logging, metrics, boot notes)
 *   generator (npm run generate) ──> data, database, config   (nothing imports it)
 *
 * A folder may import its own files and whatever its arrows reach, nothing else. Specs
 * (`*.spec.ts`), test/ and bench/ may import whatever they test: the layer rules do not apply to
 * them, the cycle rules do. Each rule's `comment` is the message a developer reads when an
 * import breaks it (`--output-type err-long`): why the arrow points that way, and what to do.
 *
 * Type-only imports count (`tsPreCompilationDeps`): a type shared across a layer boundary
 * couples the layers as much as a value does.
 */

/** Files of the engine that run in production: src/ without the specs. */
const PRODUCTION = '^src/.+(?<!\\.spec\\.ts)$';
const SPEC = '\\.spec\\.ts$';

/** The layers under every feature: none of them may import a root file (the project's definition included). */
const BASE = ['config', 'common', 'observability', 'database', 'data', 'http'];

/**
 * One "may import only" rule: files under `src/<folder>/` may import within `src/` only the
 * folders in `allowed` (their own always). Imports into src/project/, src/demo/, src/auth/ and
 * src/resources/, and (above the base) into the root files (src/*.ts), are left to the rules of
 * their own, so each broken import is reported once, with the message that explains it best.
 *
 * @param {string} name
 * @param {string[]} folders
 * @param {string[]} allowed
 * @param {string} comment
 * @returns {import('dependency-cruiser').IForbiddenRuleType}
 */
function mayImportOnly(name, folders, allowed, comment) {
  const own = folders.join('|');
  const exempt = ['^src/(project|demo|auth|resources|documents)/'];
  // The base knows no project: not even its definition's type (src/project-definition.ts, src/schema.ts).
  if (!folders.some((folder) => BASE.includes(folder))) exempt.push('^src/[^/]+\\.ts$');
  return {
    name,
    comment,
    severity: 'error',
    from: { path: `^src/(${own})/`, pathNot: SPEC },
    to: { path: '^src/', pathNot: [`^src/(${[own, ...allowed].join('|')})/`, ...exempt] },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Import cycle. Modules in a cycle cannot be understood, tested or loaded on their own, and ES module ' +
        'cycles give `undefined` (or a TDZ error) for whichever side loads second. Move what both sides need into ' +
        'a third file below them (e.g. a value helper into src/data/), or pass it in.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-through-types',
      comment:
        'Import cycle through `import type`. It is erased at compile time, so nothing breaks at run time, but the ' +
        'two modules still know each other: neither can be read or changed alone. Move the shared type into a ' +
        'third file below both. Only entities may name each other this way: the two ends of a TypeORM relation ' +
        "do (`@ManyToOne('Customer', (c: Customer) => …)`).",
      severity: 'error',
      from: { pathNot: '\\.entity\\.ts$' },
      to: { circular: true, via: { dependencyTypes: ['type-only'] } },
    },
    {
      name: 'engine-does-not-import-the-project',
      comment:
        'Only the composition root (src/main.ts; ormconfig.ts outside src/) may import src/project/, and only the ' +
        'project may import the demo (src/demo/). The engine ' +
        'receives the project through ProjectModule.forRoot(project), so tests can boot it with a small ' +
        'project of their own and teams can change their project without touching the engine. Declare a token for ' +
        'the part you need in your module and have ProjectModule (src/project.module.ts) provide it.',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: ['^src/main\\.ts$', '^src/project/', '^src/demo/'] },
      to: { path: '^src/(project|demo)/' },
    },
    {
      name: 'engine-knows-no-http',
      comment:
        'src/logic/, src/security/ and src/documents/ work on rows (src/data/), never on HTTP: src/resources/ is the HTTP ' +
        'surface that calls them. Move the shared piece (a type, a parser, a value helper) down into src/data/, or have ' +
        'resources pass it in.',
      severity: 'error',
      from: { path: '^src/(logic|security|documents|extensions)/', pathNot: SPEC },
      to: { path: '^src/resources/' },
    },
    {
      name: 'only-the-app-imports-resources',
      comment:
        'src/resources/ is the HTTP surface at the top of the engine: only the composition root mounts it. Nothing ' +
        'else may depend on controllers, request parsing or the serializer; move the piece you need down into ' +
        'src/documents/ (reading and writing resources), src/data/ (rows) or src/common/ (shared plumbing).',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: ['^src/resources/', '^src/(logic|security|documents|extensions)/', '^src/[^/]+\\.ts$'] },
      to: { path: '^src/resources/' },
    },
    {
      name: 'only-the-http-surface-imports-documents',
      comment:
        'src/documents/ reads and writes resources for src/resources/ (HTTP); features below it (security, logic, ' +
        "data) are what it calls, so they never import it. The one exception is the custom resources' definition " +
        'types, which a project (src/demo/, src/project/) writes its resources.ts with, as it does its roles.',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: ['^src/(documents|extensions|resources)/', '^src/[^/]+\\.ts$'] },
      to: { path: '^src/documents/', pathNot: '^src/documents/levels/custom-resource-definition\\.ts$' },
    },
    {
      name: 'only-the-http-surface-imports-extensions',
      comment:
        "src/extensions/ runs the project's own code (functions, function and SQL resources, request and response " +
        'events) over the documents layer, for src/resources/ (HTTP). Features below it never import it. A project ' +
        '(src/demo/, src/project/) imports only what it writes its extensions with: the definition types ' +
        '(`*-definition.ts`) and `Refusal`.',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: ['^src/(extensions|resources)/', '^src/[^/]+\\.ts$'] },
      to: { path: '^src/extensions/', pathNot: ['-definition\\.ts$', '^src/extensions/refusal\\.ts$'] },
    },
    {
      name: 'no-feature-imports-auth',
      comment:
        'src/auth/ sits under the App only: its guard is global (APP_GUARD) and hands the principal to the request. ' +
        'A feature module that imports auth/ couples itself to login and token checking. Types every module shares ' +
        '(the principal) belong below: src/common/ (or src/security/ for role data); read the principal through ' +
        'the request, not through auth internals.',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: ['^src/auth/', '^src/[^/]+\\.ts$', '^src/project/', '^src/demo/'] },
      to: { path: '^src/auth/' },
    },
    mayImportOnly(
      'config-is-the-ground',
      ['config'],
      [],
      'src/config/ (the validated environment) is the ground floor: everything reads it, so it imports nothing of ' +
        'the engine. Pass values in rather than reaching up.',
    ),
    mayImportOnly(
      'common-stays-under-the-database',
      ['common'],
      ['config'],
      'src/common/ (errors and their codes, the principal, request slots, the clock, endpoint metadata) is shared ' +
        'by every layer and knows no database, no HTTP edge and no feature: it may import only src/config/. ' +
        'Something that needs the database belongs in a layer above it (src/login/, a feature); a piece of the ' +
        'HTTP edge belongs in src/http/; a type of a feature belongs to that feature or below.',
    ),
    mayImportOnly(
      'observability-watches-from-below',
      ['observability'],
      ['common', 'config'],
      'src/observability/ (the logger, request metrics and Prometheus, the boot banner and boot notes) is used by ' +
        'every layer, so it may import only src/common/ and src/config/. A layer reports to it; it never asks a ' +
        'layer: pass the figure in (as the pool usage is, by a function).',
    ),
    mayImportOnly(
      'database-knows-no-feature',
      ['database'],
      ['observability', 'common', 'config'],
      "src/database/ (the connection, the one facade every statement goes through, migrations of Tessera's own " +
        'tables, error mapping) may import only src/common/ and src/config/. An entity or type of a feature ' +
        'belongs to the feature; the composition root (src/schema.ts) hands the entity lists in.',
    ),
    mayImportOnly(
      'data-imports-only-the-base',
      ['data'],
      ['observability', 'common', 'config', 'database'],
      'src/data/ (registry, codec, checksum, keys, row store, query) is the layer under logic, security and ' +
        'resources: it knows rows and SQL, not rules, roles or HTTP. It may import only src/database/, ' +
        'src/common/ and src/config/. Move the piece you need down into data/, or take it as a parameter.',
    ),
    mayImportOnly(
      'shared-services-import-the-base',
      ['login', 'admin-api'],
      ['observability', 'common', 'config', 'database'],
      "src/login/ (bcrypt admission, password policy, the login throttle) and src/admin-api/ (the admin API's " +
        'shared contract: endpoint decorator, admin principal, audit-trail port, paging) serve several feature ' +
        'modules: they may import only the base (common, config, database), never a feature.',
    ),
    mayImportOnly(
      'logic-knows-rows-not-roles',
      ['logic'],
      ['data', 'observability', 'common', 'config', 'database'],
      'src/logic/ (the rule engine) may import src/data/ and the base only. It does not know src/security/: it ' +
        'defines the row policy it asks (logic/row-policy.ts), which security implements and resources hands in.',
    ),
    mayImportOnly(
      'security-implements-the-engine-contract',
      ['security'],
      ['logic', 'admin-api', 'data', 'observability', 'common', 'config', 'database'],
      "src/security/ (roles, grants, row and column permissions, RolesGuard) may import the rule engine's " +
        'contracts (src/logic/: the row policy it implements), the admin API contract (admin roles) and the ' +
        'layers below. Never users, tokens, auth or admin: those take role names from security, not the reverse.',
    ),
    {
      name: 'resources-build-no-sql',
      comment:
        'src/resources/ is HTTP only: it neither builds SQL nor compiles a role filter. Reads and writes go through ' +
        'src/documents/ (DocumentsService, DocumentReader), which asks src/security/ what the caller may see and do. ' +
        'Types (ResourceAccess, a row as read) may be imported; the modules that make statements or role predicates ' +
        'may not.',
      severity: 'error',
      from: { path: '^src/resources/', pathNot: SPEC },
      to: {
        path: [
          '^src/database/',
          '^src/data/(row-store|sql-dialect|column-resolver|values-column-resolver)\\.ts$',
          '^src/data/query/(sql-compiler|compile-context)\\.ts$',
          '^src/security/(resource-access|read-visibility|keyless-order|caller-column-resolver|caller-row-policy|summary-visibility)\\.ts$',
          '^src/documents/read/level-reader\\.ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    mayImportOnly(
      'documents-import-the-engine',
      ['documents'],
      ['security', 'logic', 'data', 'observability', 'common', 'config', 'database'],
      'src/documents/ (one reader and one writer for table and custom resources) may import security (what the ' +
        'caller may do), logic (the rules a write runs), data and the base; never HTTP (src/resources/, src/http/) ' +
        'or a feature module.',
    ),
    mayImportOnly(
      'resources-imports-the-engine-not-the-features',
      ['resources'],
      ['documents', 'extensions', 'security', 'logic', 'data', 'http', 'observability', 'common', 'config', 'database'],
      'src/resources/ (HTTP for the REST resources) may import the documents, the extensions, security, logic, data and the base. Users, tokens, ' +
        'admin and the provider are separate feature modules: take what you need through an injection token, not ' +
        "by importing another module's internals.",
    ),
    mayImportOnly(
      'users-stay-under-tokens',
      ['users'],
      ['security', 'login', 'admin-api', 'observability', 'common', 'config', 'database'],
      'src/users/ (built-in users and their admin endpoints) may import security (role names), login, the admin ' +
        'API contract and the base. Tokens follow their users, so tokens import users and never the reverse: ' +
        'what users need of tokens comes through USER_TOKENS (users/user-tokens.ts).',
    ),
    mayImportOnly(
      'tokens-follow-users',
      ['tokens'],
      ['users', 'security', 'admin-api', 'data', 'observability', 'common', 'config', 'database'],
      'src/tokens/ (API tokens and their admin endpoints) may import users (a login token follows its user), ' +
        'security (role names), the admin API contract, data (SQL quoting) and the base; not auth, admin or the ' +
        'REST engine.',
    ),
    mayImportOnly(
      'provider-uses-users',
      ['provider'],
      ['users', 'login', 'admin-api', 'observability', 'common', 'config', 'database'],
      'src/provider/ (the AuthProvider contract, the built-in and custom providers) may import users (the default ' +
        'provider checks them), login, the admin API contract and the base.',
    ),
    mayImportOnly(
      'admin-keeps-to-its-accounts',
      ['admin'],
      ['tokens', 'login', 'admin-api', 'http', 'observability', 'common', 'config', 'database'],
      'src/admin/ (admin accounts, their sign-in, the audit trail, the admin guard) may import tokens (key ' +
        'generation), login, the admin API contract and the base. The admin endpoints of users, tokens, roles and ' +
        'the provider live in those modules and reach admin only through src/admin-api/.',
    ),
    mayImportOnly(
      'auth-sits-under-the-app',
      ['auth'],
      ['tokens', 'provider', 'users', 'login', 'admin-api', 'http', 'observability', 'common', 'config', 'database'],
      'src/auth/ (@authentication and the API token guard) may import tokens, the provider, users, login, the ' +
        'admin API contract (to leave admin endpoints to their own guard) and the base; not the REST engine.',
    ),
    mayImportOnly(
      'http-plumbing-imports-the-base',
      ['http'],
      ['observability', 'common', 'config', 'database'],
      'src/http/ (the edge, everything between the socket and a controller on both adapters: the front door, ' +
        'body parsing, CORS, security headers, host and URL checks, timeouts, static files, the request context ' +
        'and the one exception filter) may import only the base; layers above raise ApiErrors, which it maps. ' +
        'Controllers may import it (the request context, the client address); it never imports them.',
    ),
    mayImportOnly(
      'system-imports-only-the-base',
      ['system'],
      ['http', 'observability', 'common', 'config', 'database'],
      'src/system/ (heartbeat, license, server info) answers without touching features: it may import only the base.',
    ),
    mayImportOnly(
      'generator-reads-the-database-only',
      ['generator'],
      ['data', 'observability', 'common', 'config', 'database'],
      'src/generator/ (`npm run generate`: writes src/project/ from a database) is a command of its own: it ' +
        'reads the schema through src/database/ and maps column types with src/data/, and knows nothing of ' +
        'the running service. Keep it that way, so the service never carries it.',
    ),
    {
      name: 'nothing-imports-the-generator',
      comment:
        'src/generator/ is a command line (`npm run generate`), not part of the service: nothing imports it. ' +
        'Move what both need below it (src/database/, src/data/).',
      severity: 'error',
      from: {
        path: '^(src|test|bench|providers)/',
        pathNot: ['^src/generator/', '^test/generate[^/]*\\.e2e-spec\\.ts$', '^test/support/generated-project\\.ts$'],
      },
      to: { path: '^src/generator/' },
    },
    {
      name: 'only-the-root-imports-the-root',
      comment:
        'src/main.ts, src/bootstrap.ts and src/app.module.ts compose the engine; nothing inside it may import them ' +
        '(that is a cycle through the whole application). Take what you need by injection.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: [SPEC, '^src/project/', '^src/demo/'] },
      to: { path: '^src/(main|bootstrap|app\\.module)\\.ts$' },
    },
    {
      name: 'production-code-does-not-import-tests',
      comment:
        'Code that ships (src/ without the specs, ormconfig.ts, providers/) must not import test/, bench/ or a ' +
        'spec file: test helpers are not built into dist and may do things no server should (in-memory ' +
        'databases, fake clocks).',
      severity: 'error',
      from: { path: [PRODUCTION, '^ormconfig\\.ts$', '^providers/'] },
      to: { path: ['^test/', '^bench/', SPEC] },
    },
    {
      name: 'production-code-uses-runtime-dependencies',
      comment:
        'This package is in devDependencies, which `npm ci --omit=dev` (a production install) leaves out: the ' +
        'service would fail at start. Move it to dependencies, or import it from a spec or test/ only. ' +
        '(`import type` is fine: it is erased.)',
      severity: 'error',
      from: { path: [PRODUCTION, '^ormconfig\\.ts$', '^providers/'] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'providers-use-their-contract-only',
      comment:
        'A custom auth provider (providers/) gets a narrow host object (config, logger, fetch) and its types from ' +
        'providers/types.d.ts; it never imports the engine (src/), whose internals would then be its API.',
      severity: 'error',
      from: { path: '^providers/' },
      to: { path: '^src/' },
    },
    {
      name: 'no-barrel-files',
      comment:
        'No barrel index.ts inside features (house style): import the file that defines the thing, so the graph ' +
        'says who really depends on what and a barrel cannot hide a cycle.',
      severity: 'error',
      from: {},
      to: { path: '^src/.*/index[.][cm]?[jt]s$' },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'This import resolves to no file or package: a typo, a file moved without its importers, or a package ' +
        'missing from package.json.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^coverage/', '^node_modules/', '^test/\\.generated/'] },
    // Follow `import type` too (see above), and resolve the `./x.js` specifiers of NodeNext to `./x.ts`.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.d.ts', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
