import type { Role } from '../api.js';
import { MessageLine, Table } from '../components.js';
import { useLoad, useMessage } from '../page-state.js';
import type { PageProps } from '../shell.js';

const VERBS = ['READ', 'INSERT', 'UPDATE', 'DELETE'] as const;

/** The verbs a grant's `access` list gives (`ALL` is every one). */
function verbsOf(access: readonly string[] | undefined): Set<string> {
  const given = new Set(access ?? []);
  return new Set(VERBS.filter((verb) => given.has(verb) || given.has('ALL')));
}

/** The verbs `defaultAccess` gives the resources a role does not name. */
function defaultVerbs(defaultAccess: string | undefined): Set<string> {
  return verbsOf(defaultAccess === 'ALL' ? ['ALL'] : defaultAccess === 'READ' ? ['READ'] : []);
}

/** The global values a role's row filters read (`@{employee_id}`): a token without them sees none of those rows. */
function globalsOf(role: Role): string[] {
  const names = new Set<string>();
  for (const grant of Object.values(role.resources ?? {})) {
    for (const match of (grant.rowFilter ?? '').matchAll(/@\{\s*([^}\s]+)\s*\}/g)) if (match[1]) names.add(match[1]);
  }
  return [...names];
}

/** One grant as a table row: each verb given or not, which rows and which columns. */
function GrantRow(props: {
  resource: string;
  verbs: Set<string>;
  rowFilter?: string;
  readColumns?: string[];
  writeColumns?: string[];
  other?: boolean;
}) {
  const none = props.verbs.size === 0;
  return (
    <tr data-resource={props.resource} class={props.other ? 'other-resources' : undefined}>
      <th scope="row">{props.other ? <em>{props.resource}</em> : props.resource}</th>
      {VERBS.map((verb) => (
        <td key={verb} class={props.verbs.has(verb) ? 'granted' : 'denied'} data-verb={verb}>
          {props.verbs.has(verb) ? 'yes' : '—'}
        </td>
      ))}
      <td class="rows">{none ? '—' : props.rowFilter ? <code>{props.rowFilter}</code> : 'all rows'}</td>
      <td class="read-columns">{none || !props.verbs.has('READ') ? '—' : (props.readColumns?.join(', ') ?? 'all')}</td>
      <td class="write-columns">
        {none || ![...props.verbs].some((v) => v === 'INSERT' || v === 'UPDATE') ? '—' : (props.writeColumns?.join(', ') ?? 'all')}
      </td>
    </tr>
  );
}

/**
 * The project's roles with their grants, read-only (they are defined in src/project/roles.ts and reviewed like code):
 * per resource each verb it gives, the rows (its row filter) and the columns it may read and write, then what it gives
 * every resource it does not name; the global values its row filters read; whether it opens the meta endpoints.
 */
export function RolesPage({ api, onUnauthorized }: PageProps) {
  const { message, fail } = useMessage(onUnauthorized);
  const roles = useLoad(() => api.get<Role[]>('/roles'), fail);
  return (
    <section aria-labelledby="roles-title">
      <h1 id="roles-title">Roles</h1>
      <p class="hint">
        Read-only: roles are defined in the project (src/project/roles.ts). A token may do what any of its roles grants; rows are those some
        granting role&apos;s row filter admits.
      </p>
      <MessageLine message={message} />
      {(roles ?? []).map((role) => {
        const globals = globalsOf(role);
        return (
          <article class="panel role" key={role.name} data-role={role.name} aria-label={`Role ${role.name}`}>
            <h2>{role.name}</h2>
            <dl class="facts">
              <dt>Meta endpoints (@resources, @tables, @docs)</dt>
              <dd>{role.metaAccess ? 'yes' : 'no'}</dd>
              {globals.length > 0 && (
                <>
                  <dt>Global values its row filters read</dt>
                  <dd class="globals">
                    <code>{globals.join(', ')}</code> (a token without one sees none of those rows)
                  </dd>
                </>
              )}
            </dl>
            <Table class="grants" columns={['Resource', 'Read', 'Insert', 'Update', 'Delete', 'Rows', 'Read columns', 'Write columns']}>
              {Object.entries(role.resources ?? {}).map(([name, grant]) => (
                <GrantRow
                  key={name}
                  resource={name}
                  verbs={verbsOf(grant.access)}
                  rowFilter={grant.rowFilter}
                  readColumns={grant.readColumns}
                  writeColumns={grant.writeColumns}
                />
              ))}
              <GrantRow resource="every other resource" verbs={defaultVerbs(role.defaultAccess)} other />
            </Table>
          </article>
        );
      })}
    </section>
  );
}
