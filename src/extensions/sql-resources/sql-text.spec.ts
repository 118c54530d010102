import { describe, expect, it } from '@jest/globals';
import { scanSql } from './sql-text.js';

describe('scanSql', () => {
  it('finds placeholders, parameters and globals, in order, outside strings, quoted names and comments', () => {
    const scanned = scanSql(
      `SELECT c.name, ':not' AS "a:b", x::text -- :nor {this}
         FROM {customer c} JOIN {purchaseorder} ON 1=1 /* :nor :@this */ WHERE c.name = :name AND o.rep = :@employee_id`,
      'postgres',
    );
    expect(scanned.problems).toEqual([]);
    expect(scanned.pieces.filter((p) => p.kind !== 'text')).toEqual([
      { kind: 'table', table: 'customer', alias: 'c' },
      { kind: 'table', table: 'purchaseorder', alias: 'purchaseorder' },
      { kind: 'parameter', name: 'name' },
      { kind: 'global', name: 'employee_id' },
    ]);
    expect(
      scanned.pieces
        .filter((p) => p.kind === 'text')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toContain('\':not\' AS "a:b", x::text -- :nor {this}');
  });

  it('refuses what is not one SELECT that only reads and pages nowhere at its top', () => {
    const problems = (sql: string, dialect: 'sqlite' | 'mysql' | 'postgres' = 'sqlite'): string[] => scanSql(sql, dialect).problems;
    expect(problems('SELECT 1; SELECT 2')).toEqual(['a ";": a SQL resource is one statement, without a ";"']);
    expect(problems('UPDATE customer SET balance = 0')).toEqual([
      'the word UPDATE: a SQL resource only reads',
      'no SELECT (or WITH) at its start: a SQL resource is one SELECT',
    ]);
    expect(problems('SELECT a FROM t LIMIT 5')).toEqual(['its own LIMIT: Tessera pages the result (pagesize, offset)']);
    expect(problems('SELECT a FROM (SELECT a FROM t LIMIT 5) x')).toEqual([]);
    expect(problems('SELECT a INTO b FROM t')).toEqual(['the word INTO: a SQL resource only reads']);
    expect(problems('SELECT a FROM t FOR UPDATE')).toContain('FOR (a locking clause): a SQL resource only reads');
    expect(problems('SELECT a FROM t WHERE a = ?')).toEqual([
      `a placeholder "?" of the driver's: name the value as a parameter (:name) instead`,
    ]);
    expect(problems("SELECT 'it''s ; LIMIT' AS a, \"x;\" FROM t")).toEqual([]);
    expect(problems("SELECT 'a\\' ; ' AS a", 'mysql')).toEqual([]);
    expect(problems('SELECT $$ ; $$ AS a', 'postgres')).toEqual([]);
    expect(problems('SELECT a FROM { nope')).toEqual(['a "{" that starts no table placeholder: write {table} or {table alias}']);
  });

  it('notes tables named straight after FROM or JOIN', () => {
    expect(scanSql('SELECT * FROM customer c JOIN {purchaseorder o} ON 1=1 JOIN lineitem l ON 1=1', 'sqlite').bareTables).toEqual([
      'customer',
      'lineitem',
    ]);
  });
});
