// @ts-check
/**
 * ESLint: typescript-eslint's strict, type-aware rules over the whole repository (src/, test/,
 * bench/, providers/, scripts/, ormconfig.ts and the config files at the root). Prettier owns
 * layout (eslint-config-prettier, last, turns off every rule that would fight it); the layer
 * rules (which folder may import which) live in .dependency-cruiser.cjs.
 *
 * A rule is turned off or relaxed here only with the reason beside it; otherwise the code is
 * fixed. A single justified exception in the code is an
 * `// eslint-disable-next-line <rule> -- <why>` comment; unused ones are errors, so they cannot
 * outlive their reason.
 */
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Unit specs, beside the files they test (bench specs included). */
const UNIT_SPECS = '**/*.spec.ts';
/** Test code: unit specs, the end-to-end suites and their support. */
const TESTS = [UNIT_SPECS, 'test/**'];
/** The JavaScript tooling that runs under Node: the configs at the root and scripts/ (tsc checks them too, with checkJs). */
const NODE_TOOLING = ['*.js', '*.cjs', '*.mjs', 'scripts/**'];
/** architecture.md: no forwardRef; every module breaks its cycle instead. */
const NO_FORWARD_REF = {
  name: '@nestjs/common',
  importNames: ['forwardRef'],
  message: 'forwardRef hides a module cycle; break the cycle instead (see .dependency-cruiser.cjs).',
};

export default defineConfig(
  globalIgnores(
    [
      'dist/',
      'coverage/',
      'data/',
      'bench/results/',
      // Projects the generator suite writes (test/generate.e2e-spec.ts); the suite type-checks them.
      'test/.generated/',
      // Deliberately broken provider modules (a syntax error, wrong shapes) that the loader's
      // suite feeds to the service: they are test data, not code to keep clean.
      'test/fixtures/providers/',
    ],
    'tessera/ignores',
  ),

  {
    name: 'tessera/language',
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parserOptions: {
        // Types from the tsconfig that owns each file, the first listed that includes it: bench/'s
        // for the bench (its specs are the root's), console/'s for the browser code, and the root
        // one for everything else (the tooling files at the root too). Listed rather than found by
        // the project service, which took about a quarter longer over the repository (67 s
        // against 51 s on two cores); a file none of them includes is an error, as it was.
        project: ['./bench/tsconfig.json', './console/tsconfig.json', './tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },

  js.configs.recommended,
  tseslint.configs.strictTypeChecked,

  {
    name: 'tessera/everywhere',
    rules: {
      // Nest modules are empty classes carrying @Module(...): that is Nest's design, not dead code.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      // `Function` is the type TypeORM and Nest themselves use for class references (entity and
      // migration lists: `MixedList<Function | string | EntitySchema>`, `EntityMetadata.target`,
      // handler references from `ExecutionContext`), and this code uses it only there. What the
      // rule guards against, calling such a value untyped, is still reported by no-unsafe-call.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Numbers print the same in every locale and engine; refusing them in templates only adds
      // String(...) noise. Everything else (objects, nullish, any, booleans) stays refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => resolve()` and `(c) => c.query(...)` are the house idiom for callbacks; the rule
      // still refuses a void expression returned from a block body or used as a value.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // An `async` function without `await` is how this code implements Promise-returning
      // contracts (providers, stores, engine callbacks, test doubles): a throw becomes a rejection,
      // which the caller's `await` expects. Unhandled or misused promises are what matters, and
      // no-floating-promises, no-misused-promises and await-thenable report those.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore marks a parameter kept for its position or a property dropped from a
      // rest copy (`const { etag: _e, ...rest } = headers`): intended, named, and unused.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // With noUncheckedIndexedAccess (tsconfig.json) an index read is typed as possibly missing;
      // `rows[i]!` right after the check that makes it safe (a loop bound, a length test, a
      // regex that matched) is the house idiom, and each one is a claim a reviewer can see on
      // the line. A helper `defined(x)` would only rename it and add a call on hot paths.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Nest declares its options types as classes (NestApplicationOptions, ...) that nobody
      // instantiates: Nest itself reads them as plain objects.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // Spreading a string into code points is deliberate here (length limits are counted in
      // characters as the databases count them, not UTF-16 units); spreading a class instance
      // into an object (losing its prototype) is still reported.
      '@typescript-eslint/no-misused-spread': ['error', { allow: [{ from: 'lib', name: 'string' }] }],
      // architecture.md: "no circular imports, no forwardRef". forwardRef only papers over a cycle.
      'no-restricted-imports': ['error', { paths: [NO_FORWARD_REF] }],
    },
  },

  {
    name: 'tessera/one-way-to-the-database',
    files: ['src/**'],
    ignores: ['src/database/**', 'src/*.ts', 'src/project/**', 'src/demo/**', UNIT_SPECS],
    rules: {
      // Every statement goes through the Database facade (src/database/database.ts), which holds
      // SQLite's read/write gate: a service with a DataSource, a repository or a query runner of
      // its own could run a statement outside the gate and have a SQLite-only bug.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            NO_FORWARD_REF,
            {
              name: 'typeorm',
              importNames: ['DataSource', 'Repository', 'QueryRunner', 'getRepository'],
              message: 'Reach the database through Database (src/database/database.ts): read, write or transaction.',
            },
            { name: '@nestjs/typeorm', message: 'Reach the database through Database (src/database/database.ts).' },
          ],
          patterns: [
            {
              group: ['**/database/database-gate.js', '**/database/lone-reads.js', '**/database/write-session.js'],
              message: 'Internal to the Database facade (src/database/database.ts); go through it.',
            },
          ],
        },
      ],
    },
  },

  {
    name: 'tessera/configuration-only-in-config',
    files: ['src/**'],
    ignores: ['src/config/**'],
    rules: {
      // architecture.md: configuration is validated once at boot, in src/config/.
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration from the validated AppConfig (src/config/), not process.env.',
        },
      ],
    },
  },

  {
    name: 'tessera/tests',
    files: TESTS,
    rules: {
      // Response bodies are JSON: supertest types them `any`, and suites walk documents (OpenAPI,
      // transaction summaries) through a `Json` alias on purpose. Jest's asymmetric matchers
      // (`expect.any(String)`) are typed `any` too. The assertions are the type check here: a
      // body of the wrong shape fails the test. Production code keeps these rules.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `rows[0]!` in a test: if the row is missing, the test fails at that line, which is the
      // point of the test. Production code keeps the rule.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Specs pass methods as references (`Controller.prototype.handler`) to read Nest metadata
      // and to check mocks; they never call them unbound.
      '@typescript-eslint/unbound-method': 'off',
    },
  },

  {
    name: 'tessera/bench',
    files: ['bench/**'],
    rules: {
      // The load benchmarks index into arrays they built a line above (dataset generators,
      // result tables); a wrong index crashes the bench run, which is where it is seen.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },

  {
    name: 'tessera/node-tooling',
    files: NODE_TOOLING,
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', performance: 'readonly' },
    },
  },
  {
    name: 'tessera/commonjs',
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' },
    },
  },
  {
    name: 'tessera/providers',
    files: ['providers/**/*.js'],
    rules: {
      // tsc checks these files (checkJs, Node types), so an undefined name is a type error
      // already; no-undef would only need the Node globals listed again.
      'no-undef': 'off',
    },
  },

  prettier,
);
