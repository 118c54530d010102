import type { AuthProvider } from '../provider/auth-provider.js';

/** What `@auth_provider_info/<ident>` answers: the active provider's name and the settings it takes, never their values. */
export interface ProviderInfo {
  ident: number;
  name: string;
  kind: 'built-in' | 'custom';
  /** The settings the provider takes (its `getConfigInfo().fields`), each described, none with a value. */
  parameters: Array<Record<string, unknown>>;
  /** The login form's fields, as `@login_info` answers them. */
  loginFields: Array<Record<string, unknown>>;
}

/** The descriptive keys of a provider's setting or login field (LAC's shape); anything else, a value above all, is left out. */
const DESCRIPTIVE = ['name', 'display', 'description', 'type', 'length', 'helpURL'];

function described(field: unknown): Record<string, unknown> | undefined {
  if (typeof field !== 'object' || field === null) return undefined;
  const entries = DESCRIPTIVE.filter((key) => key in field).map((key) => [key, (field as Record<string, unknown>)[key]] as const);
  const out = Object.fromEntries(entries.filter(([, value]) => ['string', 'number'].includes(typeof value)));
  return typeof out.name === 'string' ? out : undefined;
}

/**
 * The one provider an API has: ident `1` (LAC numbers its providers) or its name (any case). Its settings' current values
 * (`getConfigInfo().current`) are for operators (GET /admin/v1/provider), not here: only what each setting is.
 */
export async function providerInfo(provider: AuthProvider, ident: string): Promise<ProviderInfo | undefined> {
  if (ident !== '1' && ident.toLowerCase() !== provider.name.toLowerCase()) return undefined;
  const [description, login] = await Promise.all([provider.describe(), provider.loginInfo()]);
  const config = description.configInfo as { fields?: unknown } | null;
  const parameters = Array.isArray(config?.fields) ? config.fields.map(described).filter((f) => f !== undefined) : [];
  return {
    ident: 1,
    name: description.name,
    kind: description.kind,
    parameters,
    loginFields: login.fields.map(described).filter((f) => f !== undefined),
  };
}
