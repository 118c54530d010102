import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { SchemaSnapshot } from '../database/schema/schema-reader.js';
import { entitySource, viewEntitySource } from './entity-writer.js';
import { BASELINE_CLASS, BASELINE_FILE, baselineMigrationSource } from './migration-writer.js';
import { entityNames } from './names.js';
import { demoPointerSource, projectSource, rolesSource, rulesSource } from './project-writer.js';
import { servedSchema } from './served-schema.js';

/** A refusal the command line reports in one line (exit status 1). */
export class GenerateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenerateError';
  }
}

export type ProjectSource = { kind: 'database'; schema: SchemaSnapshot } | { kind: 'empty' } | { kind: 'demo' };

export interface GenerateRequest {
  source: ProjectSource;
  /** The project name (not for the demo). */
  name?: string;
  /** The folder to write, absolute: `src/project/` unless tests say otherwise. */
  out: string;
  force: boolean;
  /** Tessera's folder (package.json); `out` must be inside it. */
  root: string;
}

export interface GenerateResult {
  /** Files written, relative to `out`, sorted. */
  files: string[];
  /** What was left out and why (database only). */
  skipped: string[];
  /** The views served, read-only (database only), in the order the baseline migration creates them. */
  views: string[];
  /** The generated (computed) columns served read-only (database only), as `table.column`. */
  computed: string[];
}

/** A relative import path from one folder to another, always starting with `.` and using `/`. */
function importPath(from: string, to: string): string {
  const path = relative(from, to).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

function holdsTheDemoPointer(out: string): boolean {
  const entries = readdirSync(out);
  return (
    entries.length === 1 && entries[0] === 'project.ts' && readFileSync(join(out, 'project.ts'), 'utf8').includes('demoProject as project')
  );
}

/** A path with every symbolic link on the part of it that exists resolved: where writing to it really lands. */
function realPath(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : join(realPath(parent), basename(path));
}

/**
 * Makes sure `out` may be (re)written: it is inside Tessera's folder, and it is missing or empty,
 * or `force` is given and it holds a project (a `project.ts`). What is there is replaced only
 * with `force`, the demo pointer included (the refusal says how cheaply it comes back).
 */
function clearOutput(request: GenerateRequest): void {
  const { out, root } = request;
  const inside = relative(root, out);
  // Where the files really land (a symbolic link on the way may lead out of Tessera's folder), and
  // never Tessera's own source: src/ holds only src/project/ for the generator to replace.
  const real = relative(realPath(root), realPath(out)).split(sep).join('/');
  const outside = (path: string): boolean => path === '' || path === '..' || path.startsWith(`..${sep}`) || path.startsWith('../');
  if (
    outside(inside) ||
    outside(real) ||
    resolve(root, inside) !== out ||
    real === 'test' ||
    ((real === 'src' || real.startsWith('src/')) && real !== 'src/project' && !real.startsWith('src/project/'))
  )
    throw new GenerateError(`--out must be a folder inside ${root} (src/project by default), not ${out}`);
  if (!existsSync(out) || readdirSync(out).length === 0) return;
  if (!existsSync(join(out, 'project.ts')))
    throw new GenerateError(`${out} holds no project.ts: not replacing a folder that is not a Tessera project`);
  if (!request.force) {
    const what = holdsTheDemoPointer(out) ? 'the demo (a one-line project.ts)' : 'a project';
    throw new GenerateError(
      `${inside} already holds ${what}; add --force to replace it (npm run generate -- --demo --force puts the demo back)`,
    );
  }
  rmSync(out, { recursive: true, force: true });
}

function databaseFiles(
  request: GenerateRequest,
  schema: SchemaSnapshot,
  srcDir: string,
): { files: Map<string, string>; skipped: string[]; views: string[]; computed: string[] } {
  const served = servedSchema(schema);
  const names = entityNames(served.tables, served.views);
  const files = new Map<string, string>();
  const srcFromEntities = importPath(join(request.out, 'entities'), srcDir);
  for (const table of served.tables) {
    files.set(`entities/${names.fileName.get(table.source.name)!}.ts`, entitySource(table, served.tables, names, { srcFromEntities }));
  }
  for (const view of served.views) {
    files.set(`entities/${names.fileName.get(view.source.name)!}.ts`, viewEntitySource(view, names, { srcFromEntities }));
  }
  const hasSchema = served.tables.length > 0 || served.views.length > 0;
  if (hasSchema)
    files.set(
      `migrations/${BASELINE_FILE}.ts`,
      baselineMigrationSource(request.name!, served.tables, served.views, schema.kind, importPath(join(request.out, 'migrations'), srcDir)),
    );
  const entity = (name: string): { className: string; file: string } => ({
    className: names.className.get(name)!,
    file: names.fileName.get(name)!,
  });
  files.set(
    'project.ts',
    projectSource({
      name: request.name!,
      srcFromProject: importPath(request.out, srcDir),
      entities: [...served.tables.map((t) => entity(t.source.name)), ...served.views.map((v) => entity(v.source.name))],
      ...(hasSchema ? { migration: { className: BASELINE_CLASS, file: BASELINE_FILE } } : {}),
      origin: `Generated from a ${schema.kind} database.`,
    }),
  );
  return { files, skipped: served.skipped, views: served.views.map((v) => v.source.name), computed: served.computed };
}

/** Formats the written files with the repository's Prettier, when it is installed (a development checkout). */
function format(root: string, paths: string[]): void {
  const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  if (!existsSync(prettier) || paths.length === 0) return;
  // The ignore file keeps test/.generated/ out of `npm run lint`; the generator formats what it writes wherever it is.
  execFileSync(process.execPath, [prettier, '--write', '--log-level', 'warn', '--ignore-path', '', ...paths], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** Writes the project folder for a database, an empty project, or the demo pointer. */
export function generateProject(request: GenerateRequest): GenerateResult {
  const srcDir = join(request.root, 'src');
  let files = new Map<string, string>();
  let skipped: string[] = [];
  let views: string[] = [];
  let computed: string[] = [];
  const srcFromProject = importPath(request.out, srcDir);
  switch (request.source.kind) {
    case 'demo':
      files.set('project.ts', demoPointerSource(importPath(request.out, join(srcDir, 'demo'))));
      break;
    case 'empty':
      files.set(
        'project.ts',
        projectSource({ name: request.name!, srcFromProject, entities: [], origin: 'Started empty: add entities and migrations.' }),
      );
      break;
    case 'database':
      ({ files, skipped, views, computed } = databaseFiles(request, request.source.schema, srcDir));
      break;
  }
  if (request.source.kind !== 'demo') {
    files.set('roles.ts', rolesSource(srcFromProject));
    files.set('rules.ts', rulesSource(srcFromProject));
  }
  clearOutput(request);
  const written: string[] = [];
  for (const [file, text] of files) {
    const path = join(request.out, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written.push(path);
  }
  format(request.root, written);
  return { files: [...files.keys()].sort(), skipped, views, computed };
}
