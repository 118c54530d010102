import { useEffect, useState } from 'preact/hooks';
import type { Role } from '../api.js';
import { Notice } from '../components.js';
import type { PageProps } from '../shell.js';

/** The project's roles, read-only: they are defined in src/project/roles.ts and reviewed like code. */
export function RolesPage({ api, onUnauthorized }: PageProps) {
  const [roles, setRoles] = useState<Role[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.get<Role[]>('/roles').then(setRoles, (failure: unknown) => {
      onUnauthorized(failure);
      setError(failure instanceof Error ? failure.message : String(failure));
    });
  }, []);
  return (
    <section aria-labelledby="roles-title">
      <h1 id="roles-title">Roles</h1>
      <p class="hint">Read-only: roles are defined in the project (src/project/roles.ts).</p>
      {error && <Notice kind="error">{error}</Notice>}
      {(roles ?? []).map((role) => (
        <article class="panel" key={role.name}>
          <h2>{role.name}</h2>
          <p>
            Default access: <strong>{role.defaultAccess ?? 'NONE'}</strong>; meta endpoints (@resources, @tables, @docs):{' '}
            <strong>{role.metaAccess ? 'yes' : 'no'}</strong>
          </p>
          {role.resources && Object.keys(role.resources).length > 0 && (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Resource</th>
                    <th scope="col">Verbs</th>
                    <th scope="col">Row filter</th>
                    <th scope="col">Read columns</th>
                    <th scope="col">Write columns</th>
                  </tr>
                </thead>
                <tbody>
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
                </tbody>
              </table>
            </div>
          )}
        </article>
      ))}
    </section>
  );
}
