import { useEffect, useState } from 'preact/hooks';
import type { Json } from '../api.js';
import { Notice } from '../components.js';
import type { PageProps } from '../shell.js';

interface ProviderDescription {
  name: string;
  kind: string;
  file: string | null;
  configInfo: Json;
}

/** The active authentication provider and its settings, as the admin API shows them (secrets already blanked there). */
export function ProviderPage({ api, onUnauthorized }: PageProps) {
  const [provider, setProvider] = useState<ProviderDescription>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.get<ProviderDescription>('/provider').then(setProvider, (failure: unknown) => {
      onUnauthorized(failure);
      setError(failure instanceof Error ? failure.message : String(failure));
    });
  }, []);
  return (
    <section aria-labelledby="provider-title">
      <h1 id="provider-title">Provider</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {provider && (
        <dl class="panel facts">
          <dt>Name</dt>
          <dd>{provider.name}</dd>
          <dt>Kind</dt>
          <dd>{provider.kind}</dd>
          <dt>File</dt>
          <dd>{provider.file ?? '—'}</dd>
          <dt>Settings</dt>
          <dd>{provider.configInfo === null ? 'none' : <pre>{JSON.stringify(provider.configInfo, null, 2)}</pre>}</dd>
        </dl>
      )}
    </section>
  );
}
