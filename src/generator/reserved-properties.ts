/**
 * Names a generated property must not take: a class field named `constructor` does not compile,
 * and one named `__proto__` or after a member of `Object.prototype` (`toString`, `hasOwnProperty`...)
 * breaks the objects TypeORM and Tessera build from rows.
 */
export const RESERVED_PROPERTIES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'constructor']);
