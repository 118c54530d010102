import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidatorConstraint,
  getMetadataStorage,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value;
};

/**
 * An integer variable, whose every refusal (not a number, too small, too large) says the same thing: what it expects,
 * e.g. "PORT must be an integer port 1–65535", rather than class-validator's "must not be greater than 65535".
 */
function IntegerIn(min: number, max: number, what: { noun?: string; unit?: string } = {}): PropertyDecorator {
  const message = ({ property }: ValidationArguments): string =>
    `${property} must be an integer ${what.noun ? `${what.noun} ` : ''}${min}–${max}${what.unit ? ` (${what.unit})` : ''}`;
  const rules = [Transform(toInt), IsInt({ message }), Min(min, { message }), Max(max, { message })];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/** A true/false variable; its refusal names the spellings it takes. */
function Flag(): PropertyDecorator {
  const message = ({ property }: ValidationArguments): string => `${property} must be true or false (also 1/0, yes/no, on/off)`;
  const rules = [Transform(toBool), IsBoolean({ message })];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/** A text variable of `min` to `max` characters, refused with those bounds (class-validator's own words say only one). */
function TextOf(min: number, max: number, hint?: string): PropertyDecorator {
  const message = ({ property }: ValidationArguments): string =>
    (min > 1 ? `${property} must be ${min} to ${max} characters` : `${property} must be at most ${max} characters`) +
    (hint ? ` (${hint})` : '');
  const rules = [IsString({ message }), MinLength(min, { message }), MaxLength(max, { message })];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

export const NAME = /^[A-Za-z0-9_.-]+$/;
export const NAME_MESSAGE = 'letters, digits, "_", "." or "-" only';
/** A file name inside the providers folder: never a path, never "." or "..", nor any name holding "..". */
export const PROVIDER_NAME = /^(?!.*\.\.)[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const HTTP_ADAPTERS = ['express', 'fastify'] as const;
/** `json`: one JSON object a line; `pretty`: one readable line an event. Unset: pretty on a terminal, JSON otherwise. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
/** AUTH_PROVIDER values served by Tessera itself; any other name is a module in the providers folder. */
export const BUILT_IN_PROVIDERS = ['default', 'none'] as const;

/** Variables whose values never appear in a message, not even when they are invalid. */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set(['CHECKSUM_SECRET', 'METRICS_TOKEN']);

/** A checksum secret must not be guessable: long, and not one or two characters repeated. */
@ValidatorConstraint({ name: 'checksumSecret' })
class ChecksumSecretRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length >= 32 && value.length <= 1000 && new Set(value).size >= 8;
  }

  defaultMessage(): string {
    return 'CHECKSUM_SECRET must be 32 to 1000 characters with at least 8 different ones (e.g. `openssl rand -hex 32`)';
  }
}

/**
 * Every environment variable Tessera reads, with its default and its rule.
 * `loadConfig` validates a whole environment against this class at once, so one
 * boot error names every bad variable.
 */
export class EnvironmentSchema {
  @IntegerIn(1, 65535, { noun: 'port' })
  PORT: number = 8080;

  /** Loopback by default: only this machine connects until HOST says otherwise (the image and compose set 0.0.0.0). */
  @TextOf(1, 255)
  HOST: string = '127.0.0.1';

  @IsString()
  @Matches(/^(sqlite:.+|(mysql|mariadb|postgres|postgresql):\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:<path>, mysql://…, mariadb://… or postgres://…',
  })
  DATABASE_URL: string = 'sqlite:./data/tessera.sqlite';

  @IsOptional()
  @IsString()
  @Matches(NAME, { message: `API_ACCOUNT: ${NAME_MESSAGE}` })
  API_ACCOUNT?: string;

  @IsOptional()
  @IsString()
  @Matches(NAME, { message: `API_PROJECT: ${NAME_MESSAGE}` })
  API_PROJECT?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/, {
    message: 'API_VERSIONS must be a comma-separated list of names, e.g. v1,v2',
  })
  API_VERSIONS?: string;

  @IsIn(HTTP_ADAPTERS, { message: `HTTP_ADAPTER must be one of ${HTTP_ADAPTERS.join(', ')}` })
  HTTP_ADAPTER: (typeof HTTP_ADAPTERS)[number] = 'express';

  @IntegerIn(1024, 100 * 1024 * 1024, { unit: 'bytes' })
  BODY_LIMIT_BYTES: number = 1024 * 1024;

  /** The longest a request (headers and body) may take to arrive; its headers get at most 10 s of it. */
  @IntegerIn(1000, 3_600_000, { unit: 'milliseconds' })
  REQUEST_TIMEOUT_MS: number = 30_000;

  /** How long an idle keep-alive connection stays open; above a load balancer's idle timeout (60 s on AWS). */
  @IntegerIn(1000, 600_000, { unit: 'milliseconds' })
  KEEP_ALIVE_TIMEOUT_MS: number = 65_000;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  @IsOptional()
  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT?: (typeof LOG_FORMATS)[number];

  /** Serve /metrics (Prometheus text format). */
  @Flag()
  METRICS_ENABLED: boolean = false;

  /** When set, /metrics asks for `Authorization: Bearer <token>`. */
  @IsOptional()
  @TextOf(16, 1000, 'e.g. `openssl rand -hex 32`')
  METRICS_TOKEN?: string;

  @Flag()
  TRUST_PROXY: boolean = false;

  /** The origin (and optional path prefix) clients reach Tessera at; `loadConfig` checks its shape. */
  @IsOptional()
  @TextOf(1, 2000)
  PUBLIC_URL?: string;

  /** Comma-separated host[:port] values a request's Host may name (see HostPolicy); `loadConfig` checks each. */
  @IsOptional()
  @TextOf(1, 10_000)
  ALLOWED_HOSTS?: string;

  /** Comma-separated origins (scheme://host[:port]) whose pages may call the API from a browser; `loadConfig` checks each. */
  @IsOptional()
  @TextOf(1, 10_000)
  CORS_ORIGINS?: string;

  /** The longest request target (path and query string) in bytes; longer: 414 / 4140. */
  @IntegerIn(1024, 65_536, { unit: 'bytes' })
  MAX_URL_BYTES: number = 8192;

  @IntegerIn(1, 1000, { unit: 'connections' })
  DB_POOL_SIZE: number = 10;

  @IntegerIn(100, 600_000, { unit: 'milliseconds' })
  DB_ACQUIRE_TIMEOUT_MS: number = 10_000;

  @IntegerIn(100, 3_600_000, { unit: 'milliseconds' })
  DB_STATEMENT_TIMEOUT_MS: number = 30_000;

  /** Longest a statement waits for a row lock (MySQL/MariaDB round it up to whole seconds); then the write is retried. */
  @IntegerIn(1, 3_600_000, { unit: 'milliseconds' })
  DB_LOCK_TIMEOUT_MS: number = 5_000;

  /** How long a write that conflicts with concurrent ones (deadlock, serialization, lock wait) keeps being retried; 0 never retries. */
  @IntegerIn(0, 600_000, { unit: 'milliseconds; 0 never retries' })
  WRITE_RETRY_BUDGET_MS: number = 10_000;

  @IntegerIn(1, 10 * 365 * 86400, { unit: 'seconds' })
  TOKEN_LIFETIME_SECONDS: number = 86400;

  @IntegerIn(0, 60, { unit: 'seconds' })
  TOKEN_CACHE_SECONDS: number = 2;

  /** 0 keeps expired and disabled tokens forever. */
  @IntegerIn(0, 3650, { unit: 'days; 0 keeps them forever' })
  TOKEN_RETENTION_DAYS: number = 30;

  @IntegerIn(10, 15, { noun: 'bcrypt cost' })
  BCRYPT_COST: number = 12;

  @IntegerIn(1, 10_000, { unit: 'failed logins' })
  LOGIN_MAX_FAILURES: number = 10;

  @IntegerIn(1, 100_000, { unit: 'failed logins' })
  LOGIN_MAX_FAILURES_PER_ADDRESS: number = 100;

  @IntegerIn(1, 86400, { unit: 'seconds' })
  LOGIN_FAILURE_WINDOW_SECONDS: number = 900;

  @IntegerIn(1, 100_000, { unit: 'logins' })
  LOGIN_QUEUE_MAX: number = 64;

  @IsOptional()
  @Flag()
  PERMIT_AUTH_IN_URL?: boolean;

  @IsOptional()
  @Flag()
  ALLOW_FREE_FORM_FILTERS?: boolean;

  @IsOptional()
  @Flag()
  AGGREGATE_DEFAULT_OVERRIDE?: boolean;

  @Flag()
  DOCS_PUBLIC: boolean = false;

  /** `Authorization: Basic` on the API, checked like a login (README, "HTTP Basic"); off unless set. */
  @Flag()
  HTTP_BASIC_AUTH: boolean = false;

  /** How long a successful HTTP Basic check is reused by this process (0: every request is a login). */
  @IntegerIn(0, 300, { unit: 'seconds' })
  HTTP_BASIC_CACHE_SECONDS: number = 60;

  @IntegerIn(1, 5000, { unit: 'rows' })
  PAGE_SIZE_DEFAULT: number = 20;

  @IntegerIn(1, 100_000, { unit: 'rows' })
  PAGE_SIZE_MAX: number = 5000;

  @IsString()
  @Matches(/^[A-Za-z][A-Za-z0-9_]*$/, { message: 'RESOURCE_PREFIX must be an identifier' })
  RESOURCE_PREFIX: string = 'main';

  /** The key of row checksums; unset: a random secret generated at first boot and kept in the database. */
  @IsOptional()
  @Validate(ChecksumSecretRule)
  CHECKSUM_SECRET?: string;

  @TextOf(1, 100)
  @Matches(PROVIDER_NAME, {
    message:
      'AUTH_PROVIDER must be default, none, or the name of a module directly inside the providers folder ' +
      '(letters, digits, "_", "." or "-"; no path separators, no leading "." and no "..")',
  })
  AUTH_PROVIDER: string = 'default';

  /** Raw JSON text; the provider loader parses it, so its problems are reported with the module's. */
  @IsOptional()
  @IsString()
  AUTH_PROVIDER_CONFIG?: string;

  /** The providers folder; relative paths start at the project root (the folder holding package.json). */
  @IsOptional()
  @TextOf(1, 4096)
  AUTH_PROVIDERS_DIR?: string;

  @IntegerIn(100, 120_000, { unit: 'milliseconds' })
  AUTH_PROVIDER_TIMEOUT_MS: number = 5000;

  /** Longest a project extension (function, function resource, request or response event) may run; then 503 / 5033. */
  @IntegerIn(10, 120_000, { unit: 'milliseconds' })
  EXTENSION_TIMEOUT_MS: number = 5000;

  @IsOptional()
  @TextOf(1, 100)
  TESSERA_ADMIN_USER?: string;

  @IsOptional()
  @TextOf(8, 72)
  TESSERA_ADMIN_PASSWORD?: string;

  @IntegerIn(0, 3_600_000, { unit: 'milliseconds' })
  SHUTDOWN_GRACE_MS: number = 10_000;

  /**
   * Start on a bind other than loopback although the project's seed users (the demo's, whose
   * passwords the README prints) still have their published passwords.
   */
  @Flag()
  DEMO_USERS_ALLOW_PUBLIC: boolean = false;
}

/** The name of every variable Tessera reads: the properties the schema validates. */
export const ENVIRONMENT_VARIABLES: readonly string[] = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(EnvironmentSchema, '', true, false)
      .map((rule) => rule.propertyName),
  ),
];
