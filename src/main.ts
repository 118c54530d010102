import 'reflect-metadata';
import { createApp } from './bootstrap.js';
import { bootBanner } from './observability/boot-banner.js';
import { BootNotes } from './observability/boot-notes.js';
import { ApiSettings } from './config/api-settings.js';
import { stopOnSignals } from './http/graceful-shutdown.js';
import { createLogger } from './observability/logger.js';
import { ConfigError, type AppConfig } from './config/app-config.js';
import { configFromEnvironment } from './config/read-environment.js';
import { DatabaseBootError } from './database/errors/boot-errors.js';
import { LoginThrottle } from './login/login-throttle.js';
import { project } from './project/project.js';
import { UsersSeeder } from './users/users.seeder.js';

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
  // Unset LOG_FORMAT: readable lines for a person at a terminal, JSON for whatever collects the output.
  const logger = createLogger(config.log.level, undefined, config.log.format ?? (process.stdout.isTTY ? 'pretty' : 'json'));
  let app;
  try {
    app = await createApp({ config, project, logger });
  } catch (error) {
    // Like a configuration error: the operator's fix in plain words, not a JSON log line.
    if (error instanceof DatabaseBootError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const throttle = app.get(LoginThrottle);
  stopOnSignals({ app, logger, graceMs: config.http.shutdownGraceMs, release: () => throttle.releaseAll() });

  const generatedAdmin = app.get(BootNotes).takeGeneratedAdmin();
  try {
    // Seed users (the demo's) still on their published passwords are served to this machine only, unless told otherwise.
    await app.get(UsersSeeder).refusePublishedPasswords();
    await app.listen(config.http.port, config.http.host);
  } catch (error) {
    // The account exists now; its password must not be lost with the boot.
    if (generatedAdmin)
      process.stderr.write(
        `The first admin account "${generatedAdmin.username}" was created with the password ${generatedAdmin.password}\n`,
      );
    throw error;
  }
  const settings = app.get(ApiSettings);
  const banner = bootBanner({ config, basePath: `/rest/${settings.account}/${settings.project}/${settings.versions[0]}`, generatedAdmin });
  logger[banner.level](banner.fields, banner.message);
}

main().catch((error: unknown) => {
  process.stderr.write(`Tessera failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
