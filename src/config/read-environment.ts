import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { loadConfig, type AppConfig } from './app-config.js';

/**
 * The only place that reads `process.env`: an optional `.env` file in the working
 * directory fills in variables the real environment does not set.
 */
export function readEnvironment(): Record<string, string | undefined> {
  const dotenvPath = resolve(process.cwd(), '.env');
  if (existsSync(dotenvPath)) loadDotenv({ path: dotenvPath, override: false, quiet: true });
  return process.env;
}

export function configFromEnvironment(overrides: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig({ ...readEnvironment(), ...overrides });
}
