import type { Role } from '../api.js';
import { MessageLine, Table } from '../components.js';
import { useLoad, useMessage } from '../page-state.js';
import type { PageProps } from '../shell.js';

/** The project's roles, read-only: they are defined in src/project/roles.ts and reviewed like code. */
export function RolesPage({ api, onUnauthorized }: PageProps) {
  const { message, fail } = useMessage(onUnauthorized);
  const roles = useLoad(() => api.get<Role[]>('/roles'), fail);
  return (
    <section aria-labelledby="roles-title">
      <h1 id="roles-title">Roles</h1>
      <p class="hint">Read-only: roles are defined in the project (src/project/roles.ts).</p>
      <MessageLine message={message} />
      {(roles ?? []).map((role) => (
        <article class="panel" key={role.name}>
          <h2>{role.name}</h2>
          <p>
            Default access: <strong>{role.defaultAccess ?? 'NONE'}</strong>; meta endpoints (@resources, @tables, @docs):{' '}
            <strong>{role.metaAccess ? 'yes' : 'no'}</strong>
          </p>
          {role.resources && Object.keys(role.resources).length > 0 && (
            <Table columns={['Resource', 'Verbs', 'Row filter', 'Read columns', 'Write columns']}>
              {Object.entries(role.resources).map(([name, access]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td>{(access.access ?? []).join(', ')}</td>
                  <td>
                    <code>{access.rowFilter ?? ''}</code>
                  </td>
                  <td>{access.readColumns?.join(', ') ?? 'all'}</td>
                  <td>{access.writeColumns?.join(', ') ?? 'all'}</td>
                </tr>
              ))}
            </Table>
          )}
        </article>
      ))}
    </section>
  );
}
