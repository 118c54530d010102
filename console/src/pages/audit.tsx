import type { Json } from '../api.js';
import { formatTime, ListPager, MessageLine, Table } from '../components.js';
import { useMessage, usePagedList } from '../page-state.js';
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
  const messages = useMessage(onUnauthorized);
  const list = usePagedList<AuditEntry>(api, '/audit', PAGE_SIZE, messages);
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      <MessageLine message={messages.message} />
      <Table columns={['When', 'Admin', 'Action', 'Target', 'Detail']}>
        {(list.page?.items ?? []).map((entry, index) => (
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
      </Table>
      <ListPager list={list} />
    </section>
  );
}
