import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ResourceRegistry } from '../../src/data/resource-registry.js';
import { Database } from '../../src/database/database.js';

/**
 * A resource registry built from entity classes, for unit specs: TypeORM builds the entity
 * metadata on an in-memory SQLite database that holds no table and is closed at once (no
 * migration, no schema, nothing on disk), so a spec checks rules and roles against the same
 * resources the service would serve, in milliseconds.
 */
export async function registryOf(entities: Function[], prefix = 'main'): Promise<ResourceRegistry> {
  const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities, synchronize: false });
  await dataSource.initialize();
  try {
    return new ResourceRegistry(new Database(dataSource), entities, prefix);
  } finally {
    await dataSource.destroy();
  }
}
