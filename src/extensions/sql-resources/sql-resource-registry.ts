import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { Database } from '../../database/database.js';
import type { Dialect } from '../../database/dialect.js';
import { NameLookup } from '../../database/name-lookup.js';
import { callerTableSql } from '../../security/caller-tables.js';
import { ResourceAccess } from '../../security/resource-access.js';
import type { SqlResourceDefinition } from './sql-resource-definition.js';
import { parameterProblems, sampleValue } from './sql-parameters.js';
import { buildStatement, type CompiledSqlResource } from './sql-statement.js';
import { PLAIN_NAME, scanSql } from './sql-text.js';

/** Query parameters of the API a SQL resource's parameter may not be called. */
export const RESERVED_PARAMETERS = ['pagesize', 'offset', 'auth'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const SQL_LIMIT = 20_000;

/** Every problem of the project's SQL resources and procedures, found at boot. */
export class SqlDefinitionError extends Error {
  constructor(readonly problems: string[]) {
    super(`The SQL resources and procedures in the project are invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SqlDefinitionError';
  }
}

/** What else answers at `<base>/<name>`, so that a SQL resource does not take its name. */
export interface TakenNames {
  /** The kind of what already has this name (`custom resource`, `procedure`), if anything has. */
  takenBy(name: string): string | undefined;
}

/**
 * The project's SQL resources, checked at boot: every problem of every definition in one `SqlDefinitionError`
 * (its text, its placeholders' tables, aliases, parameters and globals, its name), then (`probe`) run once on
 * the database with LIMIT 0 and a value of each parameter's type, inside a read-only transaction, and once
 * more per column of each placeholder's table left out, to learn which columns the SQL cannot run without.
 */
export class SqlResourceRegistry {
  readonly resources: readonly CompiledSqlResource[];
  private readonly byName = new NameLookup<CompiledSqlResource>();

  constructor(
    definitions: readonly SqlResourceDefinition[],
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
    globals: readonly string[],
    taken: TakenNames,
  ) {
    const problems: string[] = [];
    const compiled: CompiledSqlResource[] = [];
    const seen = new Set<string>();
    for (const definition of definitions) {
      const where = `SQL resource "${definition.name}"`;
      const before = problems.length;
      if (typeof definition.name !== 'string' || !NAME.test(definition.name)) {
        problems.push(`${where}: a name is letters, digits and _ (not starting with a digit), at most 64`);
      } else if (seen.has(definition.name.toLowerCase())) {
        problems.push(`${where} is defined twice (names match case-insensitively)`);
      } else if (registry.taken(definition.name)) {
        problems.push(`${where}: a table is called ${definition.name} (names match case-insensitively)`);
      } else {
        const other = taken.takenBy(definition.name);
        if (other) problems.push(`${where}: a ${other} is called ${definition.name}`);
      }
      seen.add(definition.name.toLowerCase());
      if (typeof definition.sql !== 'string' || definition.sql.length > SQL_LIMIT) {
        problems.push(`${where}: sql must be text of at most ${SQL_LIMIT} characters`);
        continue;
      }
      const parameters = definition.parameters ?? {};
      problems.push(...parameterProblems(where, parameters, RESERVED_PARAMETERS));
      const scanned = scanSql(definition.sql, dialect);
      problems.push(...scanned.problems.map((p) => `${where}: its SQL has ${p}`));
      const tables = new Map<string, Resource>();
      const usedParameters = new Set<string>();
      for (const piece of scanned.pieces) {
        if (piece.kind === 'table') {
          const resource = registry.find(piece.table);
          if (!resource) problems.push(`${where}: {${piece.table}} names no table of the project`);
          else tables.set(piece.table, resource);
          if (!PLAIN_NAME.test(piece.alias)) {
            problems.push(`${where}: {${piece.table}} needs an alias of lower-case letters, digits and _: write {${piece.table} x}`);
          }
        } else if (piece.kind === 'parameter') {
          usedParameters.add(piece.name);
          if (!Object.hasOwn(parameters, piece.name))
            problems.push(`${where}: its SQL uses :${piece.name}, which is not declared in parameters`);
        } else if (piece.kind === 'global' && !globals.includes(piece.name)) {
          problems.push(`${where}: its SQL uses :@${piece.name}, which is no global of the roles (declare it in the roles' globals)`);
        }
      }
      for (const name of Object.keys(parameters)) {
        if (!usedParameters.has(name)) problems.push(`${where}: parameter "${name}" is declared but its SQL never uses :${name}`);
      }
      if (!definition.system) {
        for (const bare of scanned.bareTables.filter((name) => registry.find(name))) {
          problems.push(
            `${where}: its SQL reads the table ${bare} directly: write {${bare}} so that callers see only their rows (or system: true, see the README)`,
          );
        }
      }
      if (problems.length > before) continue;
      compiled.push({
        name: definition.name,
        description: definition.description,
        pieces: scanned.pieces,
        parameters,
        tables,
        used: new Map(),
        system: definition.system === true,
      });
    }
    if (problems.length > 0) throw new SqlDefinitionError(problems);
    this.resources = compiled;
    for (const resource of compiled) this.byName.set(resource.name, resource);
  }

  find(name: string): CompiledSqlResource | undefined {
    return this.byName.get(name);
  }

  /**
   * Runs each SQL once on the database (see the class): a statement that does not run stops the boot with the
   * database's message, which names the SQL resource. Fills `used`.
   */
  async probe(database: Database): Promise<void> {
    const problems: string[] = [];
    for (const resource of this.resources) {
      const run = (leaveOut?: { table: Resource; column: string }) => {
        const statement = buildStatement(
          resource,
          this.dialect,
          {
            table: (table, _alias, params) =>
              callerTableSql(
                ResourceAccess.system(table),
                this.registry,
                this.dialect,
                params,
                leaveOut?.table === table ? leaveOut.column : undefined,
              ),
            parameter: (name) => sampleValue(resource.parameters[name]!),
            global: () => null,
          },
          { limit: 0, offset: 0 },
        );
        return database.readOnlyQuery(statement.sql, statement.values);
      };
      try {
        await run();
      } catch (error) {
        problems.push(`SQL resource "${resource.name}" does not run on this database: ${messageOf(error)}`);
        continue;
      }
      if (resource.system) continue;
      for (const table of new Set(resource.tables.values())) {
        const used = new Set<string>();
        for (const column of table.columns) {
          if (
            await run({ table, column: column.name }).then(
              () => false,
              () => true,
            )
          )
            used.add(column.name);
        }
        resource.used.set(table, used);
      }
    }
    if (problems.length > 0) throw new SqlDefinitionError(problems);
  }
}

function messageOf(error: unknown): string {
  const inner = (error as { driverError?: { message?: unknown } }).driverError?.message;
  const message = typeof inner === 'string' ? inner : error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300);
}
