import type { AppConfig } from '../config/app-config.js';
import { serviceOrigin } from '../config/hosts.js';

export interface BannerFacts {
  config: AppConfig;
  /** The API base path, e.g. /rest/default/demo/v1. */
  basePath: string;
  generatedAdmin?: { username: string; password: string };
}

/**
 * The one line that ends the boot: where the API is, on which database (its URL without the
 * password), adapter, provider and project, where the console (`/admin/`) and the API's Swagger UI
 * (`<base>/@docs/ui`) are, and the first admin's generated password when one was just made (shown
 * this once; the line is then a warning, so it stands out). Test helpers wait for its first words,
 * "Tessera is listening".
 */
export function bootBanner({ config, basePath, generatedAdmin }: BannerFacts): {
  level: 'info' | 'warn';
  fields: Record<string, string>;
  message: string;
} {
  const origin = serviceOrigin(config.http);
  const fields = {
    url: `${origin}${basePath}`,
    console: `${origin}/admin/`,
    docs: `${origin}${basePath}/@docs/ui`,
    database: config.database.safeUrl,
    adapter: config.http.adapter,
    provider: config.auth.provider,
    project: basePath.replace(/^\/rest\//, ''),
  };
  // Each URL is followed by a space, so terminals that make links of them take no punctuation along.
  let message =
    `Tessera is listening on ${fields.url} (database ${fields.database}, adapter ${fields.adapter}, ` +
    `provider ${fields.provider}, project ${fields.project}); console ${fields.console} and Swagger UI ${fields.docs}`;
  if (generatedAdmin) {
    message +=
      ` ; first admin account "${generatedAdmin.username}" created with the generated password ${generatedAdmin.password} ; ` +
      'it is shown only this once: sign in to the console with it (or POST /admin/v1/@authentication) and keep it safe ' +
      '(or set TESSERA_ADMIN_USER / TESSERA_ADMIN_PASSWORD before the first start)';
  }
  return { level: generatedAdmin ? 'warn' : 'info', fields, message };
}
