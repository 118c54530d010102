/** Every errorCode Tessera answers with (api-contract §4), and its HTTP status. */
export enum ErrorCode {
  BAD_REQUEST = 4000,
  FILTER_SYNTAX = 4001,
  FREE_FORM_FORBIDDEN = 4002,
  UNKNOWN_COLUMN = 4003,
  CHECKSUM_REQUIRED = 4004,
  /** Refused by the project's own code (a request event, a function): `Refusal(400, …)`. Every refusal's code ends in 8. */
  PROJECT_REFUSED = 4008,
  NO_TOKEN = 4010,
  TOKEN_INVALID = 4011,
  TOKEN_EXPIRED = 4012,
  LOGIN_FAILED = 4013,
  TOKEN_IN_URL_FORBIDDEN = 4014,
  FORBIDDEN = 4030,
  PROJECT_REFUSED_FORBIDDEN = 4038,
  NOT_FOUND = 4040,
  OBJECT_NOT_FOUND = 4041,
  TOKEN_NOT_FOUND = 4042,
  PROJECT_REFUSED_NOT_FOUND = 4048,
  /** A write (POST, PUT, PATCH, DELETE) on a read-only resource (a view): only GET; the answer's `Allow` header says so. */
  METHOD_NOT_ALLOWED = 4050,
  /** A GET whose Accept header allows none of the formats the resource answers in (JSON, XML, CSV), or CSV of nested lists. */
  NOT_ACCEPTABLE = 4060,
  CHECKSUM_MISMATCH = 4090,
  DUPLICATE_KEY = 4091,
  /** Deadlock, serialization or certification failure that retries within the time budget did not get through. */
  CONCURRENT_CONFLICT = 4093,
  /** The change would leave no admin account with the role `admin` (demoting or deleting the last one). */
  LAST_ADMIN = 4094,
  PROJECT_REFUSED_CONFLICT = 4098,
  BODY_TOO_LARGE = 4130,
  URL_TOO_LONG = 4140,
  UNSUPPORTED_MEDIA_TYPE = 4150,
  RULE_CONSTRAINT = 4220,
  DATABASE_CONSTRAINT = 4221,
  PROJECT_REFUSED_UNPROCESSABLE = 4228,
  TOO_MANY_LOGINS = 4290,
  INTERNAL = 5000,
  /** The rules cascaded past the engine's depth limit: events that write rows whose rules write again, in a loop (a fault of the project's rules). */
  RULES_TOO_DEEP = 5001,
  /** A project extension failed (threw something other than a `Refusal` or an API error): logged with its stack, never answered. */
  EXTENSION_FAILED = 5002,
  DATABASE_UNAVAILABLE = 5030,
  /** A custom authentication provider did not answer in time or could not be reached. */
  PROVIDER_UNAVAILABLE = 5031,
  /** Too many logins in progress: the bcrypt queue is full, or an account's or address's logins being checked held this one past its wait. */
  LOGIN_QUEUE_FULL = 5032,
  /** A project extension did not finish within its time limit (EXTENSION_TIMEOUT_MS, or its own `timeoutMs`). */
  EXTENSION_TIMEOUT = 5033,
}

/** The HTTP status of an error code is its first three digits. */
export function httpStatusOf(code: ErrorCode): number {
  return Math.floor(code / 10);
}
