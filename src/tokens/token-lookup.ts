import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { quoteIdentifier } from '../data/sql-dialect.js';
import { paramsFor } from '../data/row-store.js';
import type { Database } from '../database/database.js';
import { User } from '../users/user.entity.js';
import { ApiToken, type TokenOrigin } from './api-token.entity.js';

const LOGIN_ORIGIN: TokenOrigin = 'login';

/**
 * A token row found by its key hash. A login token follows its built-in user: it carries the
 * user's roles and globals as they are now, and `userInactive` says the user was made
 * inactive or no longer exists (the token then stops working).
 */
export interface TokenRow {
  token: ApiToken;
  userInactive: boolean;
}

/**
 * The token lookup every authenticated request makes. Its SQL is written once from entity
 * metadata (TypeORM's query builder would rebuild it on every request, which cost a fifth of
 * a simple GET), the key hash is its one bound parameter, and the driver hydrates the row
 * exactly as a repository would (JSON columns, booleans, transformers).
 */
export class TokenLookup {
  private readonly sql: string;
  private readonly columns: ColumnMetadata[];
  /** The user's columns a login token takes over, by the alias they are selected as. */
  private readonly userColumns: Array<{ alias: string; column: ColumnMetadata; property: 'roles' | 'globals' }>;

  constructor(private readonly db: Database) {
    const dialect = db.dialect;
    const q = (name: string) => quoteIdentifier(dialect, name);
    const token = db.metadata(ApiToken);
    const user = db.metadata(User);
    const column = (metadata: typeof token, property: string) => q(metadata.findColumnWithPropertyName(property)!.databaseName);
    this.columns = token.columns;
    this.userColumns = (['roles', 'globals'] as const).map((property) => ({
      alias: `user_${property}`,
      column: user.findColumnWithPropertyName(property)!,
      property,
    }));
    // Placeholders in the order find() binds its values: the login origin, then the key hash.
    const params = paramsFor(dialect);
    const origin = params.add(LOGIN_ORIGIN);
    const hash = params.add('');
    const select = token.columns.map((c) => `t.${q(c.databaseName)} AS ${q(c.databaseName)}`).join(', ');
    this.sql =
      `SELECT ${select}, u.${column(user, 'login')} AS ${q('user_login')}, u.${column(user, 'active')} AS ${q('user_active')}` +
      this.userColumns.map((c) => `, u.${q(c.column.databaseName)} AS ${q(c.alias)}`).join('') +
      ' ' +
      `FROM ${q(token.tableName)} t LEFT JOIN ${q(user.tableName)} u ` +
      `ON u.${column(user, 'login')} = t.${column(token, 'userIdentifier')} AND t.${column(token, 'origin')} = ${origin} ` +
      `WHERE t.${column(token, 'keyHash')} = ${hash}`;
  }

  async find(keyHash: string): Promise<TokenRow | undefined> {
    const rows = await this.db.read((session) => session.query(this.sql, [LOGIN_ORIGIN, keyHash]));
    const raw = rows[0];
    if (!raw) return undefined;
    const token = new ApiToken();
    for (const column of this.columns) {
      (token as unknown as Record<string, unknown>)[column.propertyName] = this.db.hydrate(raw[column.databaseName], column);
    }
    if (token.origin !== LOGIN_ORIGIN) return { token, userInactive: false };
    // The join found no user: deleted (its tokens were disabled then) or never there; either way no roles to follow.
    if (raw['user_login'] === null || raw['user_login'] === undefined) return { token, userInactive: true };
    for (const { alias, column, property } of this.userColumns) {
      (token as unknown as Record<string, unknown>)[property] = this.db.hydrate(raw[alias], column);
    }
    const userActive = raw['user_active'];
    return { token, userInactive: userActive === false || userActive === 0 || userActive === '0' };
  }
}
