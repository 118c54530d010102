import { describe, expect, it } from '@jest/globals';
import { generatedExpressions } from './generated-expressions.js';

describe('generatedExpressions: the expression of each generated column of a CREATE TABLE', () => {
  it("reads SQLite's own statement: quoted and bare names, GENERATED ALWAYS or not, strings, comments and nested parentheses", () => {
    const sql = `CREATE TABLE "t(x" (id INTEGER PRIMARY KEY, a TEXT DEFAULT ('as (no)'), -- as (comment)
      "tw""ice" INTEGER GENERATED ALWAYS AS (id * 2) VIRTUAL,
      [s] TEXT AS (upper(a) || ',' || 'it''s )') STORED NOT NULL, u AS ((a)), /* b AS (1) */
      CONSTRAINT c CHECK (a <> 'x'), UNIQUE (a))`;
    expect(Object.fromEntries(generatedExpressions(sql, false))).toEqual({
      'tw"ice': 'id * 2',
      s: "upper(a) || ',' || 'it''s )'",
      u: '(a)',
    });
  });

  it("reads MySQL/MariaDB's SHOW CREATE TABLE, whose strings escape with a backslash", () => {
    const sql = [
      'CREATE TABLE `t` (',
      '  `id` int(11) NOT NULL,',
      "  `s` varchar(20) GENERATED ALWAYS AS (concat(ucase(`a`),',','it\\'s','\\\\')) STORED,",
      '  `a``b` int(10) unsigned GENERATED ALWAYS AS (`id` + 1) VIRTUAL,',
      '  PRIMARY KEY (`id`),',
      '  KEY `ix` (`s`)',
      ') ENGINE=InnoDB',
    ].join('\n');
    expect(Object.fromEntries(generatedExpressions(sql, true))).toEqual({
      s: "concat(ucase(`a`),',','it\\'s','\\\\')",
      'a`b': '`id` + 1',
    });
  });

  it('finds none in a table without generated columns', () => {
    expect(generatedExpressions('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)', false).size).toBe(0);
  });
});
