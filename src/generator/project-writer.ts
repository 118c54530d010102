import { quote } from './names.js';

/** The one-line `src/project/project.ts` that serves the demo: what `--demo` puts back. */
export function demoPointerSource(demoFromProject: string): string {
  return [
    '/**',
    ' * The API project this service serves: out of the box, the demo (`src/demo/`).',
    ' *',
    ' * Start from your own database with `npm run generate -- --from <DATABASE_URL> --name <project> --force`,',
    ' * or from nothing with `npm run generate -- --empty --name <project> --force`; both replace this',
    ' * folder. `npm run generate -- --demo --force` puts this file back.',
    ' */',
    `export { demoProject as project } from '${demoFromProject}/project.js';`,
    '',
  ].join('\n');
}

export function rolesSource(srcFromProject: string): string {
  return [
    `import type { RolesDefinition } from '${srcFromProject}/security/role-definition.js';`,
    '',
    '/**',
    " * The project's roles (README, \"Roles\"). A token's permissions are the union of its roles';",
    ' * add roles with row filters and column lists as the project needs them.',
    ' */',
    'export const roles: RolesDefinition = {',
    '  globals: [],',
    '  roles: [',
    "    { name: 'Full access', defaultAccess: 'ALL', metaAccess: true },",
    "    { name: 'Read only', defaultAccess: 'READ', metaAccess: true },",
    '  ],',
    '};',
    '',
  ].join('\n');
}

export function rulesSource(srcFromProject: string): string {
  return [
    `import type { Rule } from '${srcFromProject}/logic/rule-dsl.js';`,
    '',
    "/** The project's business logic (sums, counts, formulas, copies, constraints, events); see `src/logic/rule-dsl.ts`. */",
    'export const rules: Rule[] = [];',
    '',
  ].join('\n');
}

export interface ProjectFileParts {
  name: string;
  srcFromProject: string;
  /** Class name and file (without extension, relative to `entities/`) of each entity, in order. */
  entities: Array<{ className: string; file: string }>;
  /** Class name and file of the baseline migration (relative to `migrations/`), if any. */
  migration?: { className: string; file: string };
  /** Where it came from, for the doc comment. */
  origin: string;
}

export function projectSource(parts: ProjectFileParts): string {
  const lines = [`import type { ProjectDefinition } from '${parts.srcFromProject}/project-definition.js';`];
  for (const entity of parts.entities) lines.push(`import { ${entity.className} } from './entities/${entity.file}.js';`);
  if (parts.migration) lines.push(`import { ${parts.migration.className} } from './migrations/${parts.migration.file}.js';`);
  lines.push(
    "import { roles } from './roles.js';",
    "import { rules } from './rules.js';",
    '',
    '/**',
    ` * The API project ${parts.name}: what \`/rest/default/${parts.name}/v1\` serves. ${parts.origin}`,
    ' * Edit this folder (entities, migrations, roles, rules); the engine never imports it.',
    ' */',
    'export const project: ProjectDefinition = {',
    "  account: 'default',",
    `  name: ${quote(parts.name)},`,
    "  versions: ['v1'],",
    '  options: {',
    '    permitAuthInUrl: false,',
    '    allowFreeFormFilters: true,',
    '  },',
    `  entities: [${parts.entities.map((e) => e.className).join(', ')}],`,
    `  migrations: [${parts.migration ? parts.migration.className : ''}],`,
    '  roles,',
    '  rules,',
    '};',
    '',
  );
  return lines.join('\n');
}
