import { useEffect, useState } from 'preact/hooks';
import type { Json, Page } from '../api.js';
import { formatTime, Notice, Pager } from '../components.js';
import type { PageProps } from '../shell.js';

const PAGE_SIZE = 25;

interface AuditEntry {
  admin: string;
  action: string;
  target: string;
  detail: Json;
  at: string;
}

/** Every admin change, newest first (the API's order). */
export function AuditPage({ api, onUnauthorized }: PageProps) {
  const [page, setPage] = useState<Page<AuditEntry>>();
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.get<Page<AuditEntry>>(`/audit?offset=${offset}&pagesize=${PAGE_SIZE}`).then(setPage, (failure: unknown) => {
      onUnauthorized(failure);
      setError(failure instanceof Error ? failure.message : String(failure));
    });
  }, [offset]);
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      {error && <Notice kind="error">{error}</Notice>}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Admin</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {(page?.items ?? []).map((entry, index) => (
              <tr key={index}>
                <td>{formatTime(entry.at)}</td>
                <td>{entry.admin}</td>
                <td>{entry.action}</td>
                <td>{entry.target}</td>
                <td>
                  <code>{entry.detail === null ? '' : JSON.stringify(entry.detail)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && <Pager offset={offset} pagesize={PAGE_SIZE} total={page.total} onOffset={setOffset} />}
    </section>
  );
}
