import 'reflect-metadata';
import { createApp } from './bootstrap.js';
import { stopOnSignals } from './common/graceful-shutdown.js';
import { createLogger } from './common/logger.js';
import { ConfigError, type AppConfig } from './config/app-config.js';
import { configFromEnvironment } from './config/read-environment.js';
import { DatabaseBootError, openDatabase } from './database/open-database.js';
import { project } from './project/project.js';
import { schemaOf } from './schema.js';

function loadConfigOrExit(): AppConfig {
  try {
    return configFromEnvironment();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.log.level);
  let dataSource;
  try {
    dataSource = await openDatabase(config.database, schemaOf(project), logger);
  } catch (error) {
    // Like a configuration error: the operator's fix in plain words, not a JSON log line.
    if (error instanceof DatabaseBootError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp({ config, project, dataSource, logger });

  const closeDatabase = async (): Promise<void> => {
    if (dataSource.isInitialized) await dataSource.destroy();
  };
  stopOnSignals({ app, closeDatabase, logger, graceMs: config.http.shutdownGraceMs });

  await app.listen(config.http.port, config.http.host);
  logger.info(
    { url: `http://${config.http.host}:${config.http.port}/rest`, adapter: config.http.adapter, database: config.database.safeUrl },
    'Tessera is listening',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`Tessera failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
