import type { AppConfig } from './app-config.js';

/** What the project says of the API it serves (see `ProjectDefinition`). */
export interface ApiIdentity {
  account: string;
  name: string;
  versions: string[];
  options: { permitAuthInUrl?: boolean; allowFreeFormFilters?: boolean; aggregateDefaultOverride?: boolean };
}

/** The API project's settings after the environment's overrides: what the engine obeys. */
export class ApiSettings {
  readonly account: string;
  readonly project: string;
  readonly versions: readonly string[];
  readonly permitAuthInUrl: boolean;
  readonly allowFreeFormFilters: boolean;
  /**
   * LAC's "Aggregate Default Override": values a client sends for attributes rules derive are
   * compared with the stored ones (400 / 4003 when they differ). Off (the default): they are ignored.
   * `@apioptions` lists it.
   */
  readonly aggregateDefaultOverride: boolean;
  readonly resourcePrefix: string;
  readonly pageSizeDefault: number;
  readonly pageSizeMax: number;
  /** `Authorization: Basic` accepted (HTTP_BASIC_AUTH; off by default: README, "HTTP Basic"). */
  readonly httpBasicAuth: boolean;

  constructor(config: AppConfig, project: ApiIdentity) {
    this.account = config.api.account ?? project.account;
    this.project = config.api.project ?? project.name;
    this.versions = config.api.versions ?? project.versions;
    this.permitAuthInUrl = config.api.permitAuthInUrl ?? project.options.permitAuthInUrl ?? false;
    this.allowFreeFormFilters = config.api.allowFreeFormFilters ?? project.options.allowFreeFormFilters ?? true;
    this.aggregateDefaultOverride = config.api.aggregateDefaultOverride ?? project.options.aggregateDefaultOverride ?? false;
    this.resourcePrefix = config.api.resourcePrefix;
    this.pageSizeDefault = config.api.pageSizeDefault;
    this.pageSizeMax = config.api.pageSizeMax;
    this.httpBasicAuth = config.api.httpBasicAuth;
  }

  /** True when the URL's account, project and version name this API (case-sensitive, as configured). */
  serves(account: string, project: string, version: string): boolean {
    return account === this.account && project === this.project && this.versions.includes(version);
  }
}
