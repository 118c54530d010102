import type { EntityManager, MixedList } from 'typeorm';
import type { Rule } from './logic/rule-dsl.js';
import type { CustomResourceDefinition, TableQueriesDefinition } from './documents/levels/custom-resource-definition.js';
import type { RolesDefinition } from './security/role-definition.js';
import type { SqlResourceDefinition } from './extensions/sql-resources/sql-resource-definition.js';
import type { ProcedureDefinition } from './extensions/procedures/procedure-definition.js';
import type { SeedUser } from './users/seed-user.js';
import type { ApiEventsDefinition } from './extensions/events/api-event-definition.js';
import type { FunctionDefinition, FunctionResourceDefinition } from './extensions/functions/function-definition.js';

/**
 * What an API project hands to the engine (see `src/project/project.ts`).
 * The engine never imports `src/project/`; `app.module.ts` passes this in, so tests can
 * boot the engine with a small project of their own.
 */
export interface ProjectDefinition {
  /** Account segment of the URL (`/rest/<account>/...`). */
  account: string;
  /** API project name, the second segment (`/rest/<account>/<project>/...`). */
  name: string;
  /**
   * API versions served; the third segment. At least one. Every version serves the same resources unless a custom
   * resource names the versions it is in (`CustomResourceDefinition.versions`), or an event (`events`) does.
   */
  versions: string[];
  options: {
    /** Allow `auth=<key>` in the query string of GET requests (api-contract §2). Default false. */
    permitAuthInUrl?: boolean;
    /** Allow free-form `filter` and `order` (api-contract §5). Default true. */
    allowFreeFormFilters?: boolean;
    /**
     * LAC's "Aggregate Default Override". Off (default false): values a client sends for attributes
     * rules derive (sums, counts, mins, maxes, formulas, copies) are ignored on insert and update.
     * On: such a value is refused (400 / 4003) unless it equals the stored one. `@apioptions` lists it.
     */
    aggregateDefaultOverride?: boolean;
  };
  /** TypeORM entity classes; each becomes a resource. */
  entities: Function[];
  /** Migrations that create and change the project's tables. */
  migrations: MixedList<Function>;
  /**
   * Loads starting data into an empty database, once (on the first start). It runs in one
   * transaction, before the service accepts requests, and only when every project table is empty.
   */
  seed?: (manager: EntityManager) => Promise<void>;
  /** Who may do what: the roles tokens carry, and the globals their row filters use (`src/project/roles.ts`). */
  roles: RolesDefinition;
  /** Business logic (sums, counts, formulas, copies, constraints, events); see `src/logic/rule-dsl.ts`. */
  rules?: Rule[];
  /**
   * Custom (nested) resources: documents of a table's rows with their children and parents to any
   * depth (`src/documents/levels/custom-resource-definition.ts`), checked at boot.
   */
  resources?: CustomResourceDefinition[];
  /**
   * Named filters and orders of table resources, by table name (`userfilter`/`userorder` on the
   * table's GET, as on a custom resource; `src/documents/levels/custom-resource-definition.ts`),
   * checked at boot.
   */
  tableQueries?: Record<string, TableQueriesDefinition>;
  /**
   * Request and response events: the project's code run before a resource request is carried out (to refuse it
   * or adjust its body) and on its answer before it is sent (to reshape it); `src/extensions/events/api-event-definition.ts`,
   * checked at boot.
   */
  events?: ApiEventsDefinition;
  /**
   * Free SQL resources: a SELECT each, over the tables as the caller may read them, with bound parameters,
   * served read-only and paged (`src/extensions/sql-resources/sql-resource-definition.ts`), checked at boot.
   */
  sqlResources?: SqlResourceDefinition[];
  /**
   * Stored procedures and functions of the database (MySQL/MariaDB, PostgreSQL) the API serves, called with
   * bound arguments (`src/extensions/procedures/procedure-definition.ts`), checked at boot against the catalog.
   */
  procedures?: ProcedureDefinition[];
  /**
   * Row and resource functions of tables (`<table>/<key>/<name>`, `<table>/<name>`): the project's code, given a host
   * that reads and writes as the caller (`src/extensions/functions/function-definition.ts`), checked at boot.
   */
  functions?: FunctionDefinition[];
  /** Function resources (`<name>`): resources whose answers the project's code computes, granted by name in roles. */
  functionResources?: FunctionResourceDefinition[];
  /**
   * Built-in users created once, on the first start into an empty users table, so a new
   * installation can log in at once. Never created again, even if every user is deleted later.
   */
  seedUsers?: SeedUser[];
}
