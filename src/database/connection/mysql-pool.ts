/** The part of a mysql2 pool Tessera uses: its 'connection' event and the connections already open. */
export interface MysqlPool<C> {
  on(event: 'connection', listener: (connection: C) => void): void;
  /** mysql2's own list (a Denque); not public API, so read defensively. */
  _allConnections?: { toArray?(): C[] };
}

/**
 * Runs `setUp` on every connection of the pool: those opened from now on, and those already
 * open. TypeORM opens the first one inside `initialize()` (to check the server), before anyone
 * can listen for 'connection'; it stayed in the pool without the session settings of the rest.
 */
export function onEveryMysqlConnection<C>(pool: MysqlPool<C> | undefined, setUp: (connection: C) => void): void {
  if (!pool) return;
  pool.on('connection', setUp);
  for (const connection of pool._allConnections?.toArray?.() ?? []) setUp(connection);
}
