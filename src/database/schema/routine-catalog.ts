import type { Dialect } from '../dialect.js';

/** One parameter of a stored routine, as the catalog lists it (in order). */
export interface RoutineParameter {
  name: string;
  /** IN, OUT or INOUT. */
  mode: string;
  /** The catalog's type name, lower case (`int`, `character varying`, `numeric`). */
  dataType: string;
}

/** A stored procedure or function of the current schema, as the catalog describes it. */
export interface RoutineInfo {
  name: string;
  kind: 'PROCEDURE' | 'FUNCTION';
  parameters: RoutineParameter[];
}

type Query = (sql: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/**
 * The routines of the current schema called `name` (several when PostgreSQL has overloads), from
 * information_schema on MySQL/MariaDB and PostgreSQL; SQLite has none. A function's return value
 * (ordinal 0) is not a parameter. Names compare exactly, as the catalog spells them.
 */
export async function routinesNamed(query: Query, dialect: Dialect, name: string): Promise<RoutineInfo[]> {
  if (dialect === 'sqlite') return [];
  const schema = dialect === 'postgres' ? 'current_schema()' : 'DATABASE()';
  const p = (n: number): string => (dialect === 'postgres' ? `$${n}` : '?');
  const routines = await query(
    `SELECT specific_name AS rid, routine_type AS rkind FROM information_schema.routines
      WHERE routine_schema = ${schema} AND routine_name = ${p(1)} ORDER BY specific_name`,
    [name],
  );
  const found: RoutineInfo[] = [];
  for (const routine of routines) {
    const specific = text(lower(routine, 'rid'), '');
    const parameters = await query(
      `SELECT parameter_name AS pname, parameter_mode AS pmode, data_type AS ptype FROM information_schema.parameters
        WHERE specific_schema = ${schema} AND specific_name = ${p(1)} AND ordinal_position > 0 ORDER BY ordinal_position`,
      [specific],
    );
    found.push({
      name,
      kind: text(lower(routine, 'rkind'), '').toUpperCase() === 'PROCEDURE' ? 'PROCEDURE' : 'FUNCTION',
      parameters: parameters.map((row) => ({
        name: text(lower(row, 'pname'), ''),
        mode: text(lower(row, 'pmode'), 'IN').toUpperCase(),
        dataType: text(lower(row, 'ptype'), '').toLowerCase(),
      })),
    });
  }
  return found;
}

/** A column of a catalog row, whatever case the driver gives its name in (MySQL answers information_schema's in capitals). */
function lower(row: Record<string, unknown>, name: string): unknown {
  return row[name] ?? row[name.toUpperCase()];
}

/** A catalog value as text (MySQL may answer information_schema's text as bytes). */
function text(value: unknown, fallback: string): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return value === null || value === undefined ? fallback : JSON.stringify(value);
}
