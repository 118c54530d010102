import type { ResourceRegistry } from '../../data/resource-registry.js';
import { quoteIdentifier } from '../../data/sql-dialect.js';
import type { Database } from '../../database/database.js';
import type { Dialect } from '../../database/dialect.js';
import { NameLookup } from '../../database/name-lookup.js';
import type { RoutineInfo } from '../../database/schema/routine-catalog.js';
import type { SqlParameterDefinition } from '../sql-resources/sql-resource-definition.js';
import { parameterProblems } from '../sql-resources/sql-parameters.js';
import { SqlDefinitionError, type TakenNames } from '../sql-resources/sql-resource-registry.js';
import type { ProcedureDefinition } from './procedure-definition.js';

/** A procedure as the boot found it in the catalog: how to call it, and its arguments in order, typed. */
export interface CompiledProcedure {
  name: string;
  description?: string;
  kind: 'PROCEDURE' | 'FUNCTION';
  /** The routine's name quoted for SQL (checked against the catalog). */
  quoted: string;
  arguments: ReadonlyArray<{ name: string; definition: SqlParameterDefinition }>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const BY_CATALOG_TYPE: Array<[RegExp, SqlParameterDefinition['type']]> = [
  [/^(tinyint|smallint|mediumint|int|integer|bigint|int2|int4|int8)$/, 'integer'],
  [/^(decimal|numeric|float|double|real|double precision)$/, 'number'],
  [/^(char|varchar|character|character varying|text|tinytext|mediumtext|longtext|citext|enum)$/, 'string'],
  [/^(boolean|bool)$/, 'boolean'],
  [/^date$/, 'date'],
];

/**
 * The project's procedures, checked at boot against the database's catalog (`check`): each must exist once
 * (no PostgreSQL overloads), have a name of letters, digits and `_`, take no OUT parameter on MySQL/MariaDB
 * and parameters of types Tessera binds; their declared limits must fit. Every problem in one `SqlDefinitionError`.
 * A procedure whose `databases` leave out this one is not served.
 */
export class ProcedureRegistry {
  private readonly byName = new NameLookup<CompiledProcedure>();
  private compiled: CompiledProcedure[] = [];

  constructor(
    private readonly definitions: readonly ProcedureDefinition[],
    private readonly dialect: Dialect,
  ) {}

  get procedures(): readonly CompiledProcedure[] {
    return this.compiled;
  }

  /** The definitions this database serves (their names, for roles and the URL space, before the catalog is read). */
  served(): ProcedureDefinition[] {
    return this.definitions.filter((d) => d.databases === undefined || (this.dialect !== 'sqlite' && d.databases.includes(this.dialect)));
  }

  find(name: string): CompiledProcedure | undefined {
    return this.byName.get(name);
  }

  async check(database: Database, registry: ResourceRegistry, taken: TakenNames): Promise<void> {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const definition of this.served()) {
      const where = `procedure "${definition.name}"`;
      if (typeof definition.name !== 'string' || !NAME.test(definition.name)) {
        problems.push(`${where}: a name is letters, digits and _ (not starting with a digit), at most 64`);
        continue;
      }
      if (seen.has(definition.name.toLowerCase())) problems.push(`${where} is defined twice (names match case-insensitively)`);
      seen.add(definition.name.toLowerCase());
      if (registry.taken(definition.name)) problems.push(`${where}: a table is called ${definition.name}`);
      const other = taken.takenBy(definition.name);
      if (other) problems.push(`${where}: a ${other} is called ${definition.name}`);
      if (this.dialect === 'sqlite') {
        problems.push(`${where}: SQLite has no stored procedures (list the databases that have it: databases: ['mysql', 'postgres'])`);
        continue;
      }
      const found = await database.routinesNamed(definition.name);
      if (found.length === 0) {
        problems.push(`${where}: the database has no procedure or function ${definition.name} in its current schema`);
        continue;
      }
      if (found.length > 1) {
        problems.push(`${where}: the database has ${found.length} routines called ${definition.name} (overloads): keep one`);
        continue;
      }
      const compiled = this.compile(definition, found[0]!, where, problems);
      if (compiled) this.compiled.push(compiled);
    }
    if (problems.length > 0) throw new SqlDefinitionError(problems);
    for (const procedure of this.compiled) this.byName.set(procedure.name, procedure);
  }

  private compile(definition: ProcedureDefinition, routine: RoutineInfo, where: string, problems: string[]): CompiledProcedure | undefined {
    const before = problems.length;
    const inputs = routine.parameters.filter((p) => p.mode === 'IN' || p.mode === 'INOUT');
    // A PostgreSQL function's OUT parameters are the columns it returns; a MySQL/MariaDB procedure's would need session variables.
    const outputs = routine.parameters.filter((p) => p.mode !== 'IN');
    if (outputs.length > 0 && !(this.dialect === 'postgres' && routine.kind === 'FUNCTION')) {
      problems.push(`${where}: OUT and INOUT parameters (${outputs.map((p) => p.name).join(', ')}) are not supported: return a result set`);
    }
    const declared = definition.parameters ?? {};
    const args: Array<{ name: string; definition: SqlParameterDefinition }> = [];
    for (const parameter of inputs) {
      const type = BY_CATALOG_TYPE.find(([pattern]) => pattern.test(parameter.dataType))?.[1];
      if (!type) {
        problems.push(`${where}: parameter "${parameter.name}" is of type ${parameter.dataType}, which Tessera does not bind`);
        continue;
      }
      if (!parameter.name) {
        problems.push(`${where}: every parameter needs a name`);
        continue;
      }
      const given = declared[parameter.name];
      if (given?.type !== undefined && given.type !== type) {
        problems.push(
          `${where}: parameter "${parameter.name}" is declared ${given.type}, but the database's is ${parameter.dataType} (${type})`,
        );
      }
      args.push({ name: parameter.name, definition: { ...given, type } });
    }
    for (const name of Object.keys(declared)) {
      if (!inputs.some((p) => p.name === name))
        problems.push(`${where}: parameter "${name}" is declared, but the database's ${definition.name} has none of that name`);
    }
    problems.push(...parameterProblems(where, Object.fromEntries(args.map((a) => [a.name, a.definition])), []));
    if (problems.length > before) return undefined;
    return {
      name: definition.name,
      description: definition.description,
      kind: routine.kind,
      quoted: quoteIdentifier(this.dialect, routine.name),
      arguments: args,
    };
  }
}
