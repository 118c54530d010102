import type { Json } from '../api.js';
import { MessageLine } from '../components.js';
import { useLoad, useMessage } from '../page-state.js';
import type { PageProps } from '../shell.js';

interface ProviderDescription {
  name: string;
  kind: string;
  file: string | null;
  configInfo: Json;
}

/** The active authentication provider and its settings, as the admin API shows them (secrets already blanked there). */
export function ProviderPage({ api, onUnauthorized }: PageProps) {
  const { message, fail } = useMessage(onUnauthorized);
  const provider = useLoad(() => api.get<ProviderDescription>('/provider'), fail);
  return (
    <section aria-labelledby="provider-title">
      <h1 id="provider-title">Provider</h1>
      <MessageLine message={message} />
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
