import type { ApiSettings } from '../../config/api-settings.js';

/** One API option as LAC's `@apioptions` answers it: every value as text, with its type and default. */
export interface ApiOption {
  ident: number;
  name: string;
  description: string;
  option_value: string;
  data_type: 'boolean' | 'number' | 'string';
  default_value: string;
  valid_value: string | null;
}

/** Tessera's built-in defaults (environment.schema.ts: PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX). */
const DEFAULT_PAGE_SIZE = 20;
const DEFAULT_MAX_PAGE_SIZE = 5000;

/**
 * The API's options, in LAC's shape. `ident` 1 is LAC's own number for Aggregate Default Override; the others are
 * Tessera's (LAC's list held options Tessera has no use for, such as its XML root). Answers are JSON unless a GET's
 * Accept asks for CSV or XML.
 */
export function apiOptionsOf(settings: ApiSettings): ApiOption[] {
  const bool = (value: boolean): string => String(value);
  return [
    {
      ident: 1,
      name: 'Aggregate Default Override',
      description:
        "LAC's option: what happens when a request sets or alters an aggregate a rule derives (a sum, count, min or max): overridden by the rule (the default) or refused.",
      option_value: bool(settings.aggregateDefaultOverride),
      data_type: 'boolean',
      default_value: 'false',
      valid_value: null,
    },
    {
      ident: 2,
      name: 'Default page size',
      description: 'Objects a GET answers when it sends no pagesize (PAGE_SIZE_DEFAULT).',
      option_value: String(settings.pageSizeDefault),
      data_type: 'number',
      default_value: String(DEFAULT_PAGE_SIZE),
      valid_value: null,
    },
    {
      ident: 3,
      name: 'Maximum page size',
      description: 'The largest pagesize a GET may ask for (PAGE_SIZE_MAX).',
      option_value: String(settings.pageSizeMax),
      data_type: 'number',
      default_value: String(DEFAULT_MAX_PAGE_SIZE),
      valid_value: null,
    },
    {
      ident: 4,
      name: 'Enable HTTP Basic Authentication',
      description:
        'Whether a request without an auth token may authenticate with "Authorization: Basic" (user and password), checked like a login (HTTP_BASIC_AUTH).',
      option_value: bool(settings.httpBasicAuth),
      data_type: 'boolean',
      default_value: 'false',
      valid_value: null,
    },
    {
      ident: 5,
      name: 'Default response format',
      description: 'The format of answers when the request does not ask for one by Accept (text/csv and application/xml may be asked for).',
      option_value: 'json',
      data_type: 'string',
      default_value: 'json',
      valid_value: 'json',
    },
    {
      ident: 6,
      name: 'Permit auth token in URL',
      description: 'Whether a GET may carry its auth token as ?auth=<key>:1 (permitAuthInUrl).',
      option_value: bool(settings.permitAuthInUrl),
      data_type: 'boolean',
      default_value: 'false',
      valid_value: null,
    },
    {
      ident: 7,
      name: 'Allow free-form filters',
      description: 'Whether filter and order (free-form) are accepted besides sysfilter and sysorder (allowFreeFormFilters).',
      option_value: bool(settings.allowFreeFormFilters),
      data_type: 'boolean',
      default_value: 'true',
      valid_value: null,
    },
  ];
}
