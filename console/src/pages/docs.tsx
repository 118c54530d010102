import { Notice } from '../components.js';
import { useLoad, useMessage } from '../page-state.js';
import { apiBases, type PageProps } from '../shell.js';

/** Links to Swagger UI for each served API version, and the admin API's own OpenAPI document. */
export function DocsPage({ api, onUnauthorized }: PageProps) {
  const { message: missing, fail } = useMessage(onUnauthorized);
  const adminDoc = useLoad(() => api.get<unknown>('/openapi.json').then((doc) => JSON.stringify(doc, null, 2)), fail);
  return (
    <section aria-labelledby="docs-title">
      <h1 id="docs-title">API docs</h1>
      <h2>The data API</h2>
      <p>Swagger UI for each version (it asks for an API token, not your admin token):</p>
      <ul>
        {apiBases().map((base) => (
          <li key={base}>
            <a href={`${base}/@docs/ui`}>{base}/@docs/ui</a> (document: <a href={`${base}/@docs`}>{base}/@docs</a>)
          </li>
        ))}
      </ul>
      <h2>The admin API</h2>
      <p>
        OpenAPI document: <code>/admin/v1/openapi.json</code>
      </p>
      {missing && <Notice kind="info">Not available from this server: {missing.text}</Notice>}
      {adminDoc && <pre class="document">{adminDoc}</pre>}
    </section>
  );
}
