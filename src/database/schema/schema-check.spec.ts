import { typesAgree } from './schema-check.js';

describe('column type families', () => {
  it.each([
    ['int', 'integer'],
    ['integer', 'int4'],
    ['bigint', 'int8'],
    ['varchar', 'character varying'],
    ['character varying', 'varchar(255)'],
    ['decimal', 'numeric'],
    ['datetime', 'timestamp without time zone'],
    ['timestamp', 'datetime'],
    ['boolean', 'tinyint(1)'],
    ['boolean', 'integer'],
    ['uuid', 'varchar'],
    ['json', 'longtext'],
    ['int unsigned', 'int'],
    ['some-type-nobody-knows', 'integer'],
  ])('%s and %s agree', (entity, database) => {
    expect(typesAgree(entity, database)).toBe(true);
  });

  it.each([
    ['integer', 'varchar'],
    ['int', 'character varying'],
    ['decimal', 'float'],
    ['varchar', 'integer'],
    ['date', 'datetime'],
    ['datetime', 'varchar'],
  ])('%s and %s do not', (entity, database) => {
    expect(typesAgree(entity, database)).toBe(false);
  });
});
