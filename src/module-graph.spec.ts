import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from './config/app-config.js';
import { PROJECT_ROOT } from './config/project-root.js';
import { demoProject } from './demo/project.js';
import { moduleGraph, type GraphModule } from './module-graph.js';
import { createLogger } from './observability/logger.js';

/** A condition of a dependency-cruiser rule, as far as this spec reads one. */
interface PathCondition {
  path?: string | string[];
  pathNot?: string | string[];
  [other: string]: unknown;
}
interface ForbiddenRule {
  name: string;
  from: PathCondition;
  to: PathCondition;
}

const rules = (createRequire(import.meta.url)(join(PROJECT_ROOT, '.dependency-cruiser.cjs')) as { forbidden: ForbiddenRule[] }).forbidden;

const listOf = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());
const meets = (condition: PathCondition, path: string) =>
  (condition.path === undefined || listOf(condition.path).some((pattern) => new RegExp(pattern).test(path))) &&
  !listOf(condition.pathNot).some((pattern) => new RegExp(pattern).test(path));
/** Rules about paths alone (not cycles, package kinds or unresolvable imports), which an arrow between two files can break. */
const pathRules = rules.filter((rule) => Object.keys(rule.to).every((key) => key === 'path' || key === 'pathNot'));

/** The path rules an import from one file to another would break. */
function broken(from: string, to: string): string[] {
  return pathRules.filter((rule) => meets(rule.from, from) && meets(rule.to, to)).map((rule) => rule.name);
}

/** Where each of Tessera's Nest modules is defined (`export class XModule` in a `*.module.ts` under src/). */
function moduleFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.module.ts')) {
        for (const [, name] of readFileSync(path, 'utf8').matchAll(/export class (\w+Module)\b/g))
          files.set(name!, relative(PROJECT_ROOT, path));
      }
    }
  };
  visit(join(PROJECT_ROOT, 'src'));
  return files;
}

/**
 * Nest's module graph of the application (the demo project) held against the dependency rules
 * of `.dependency-cruiser.cjs`: with only CoreModule and the configuration global, every other
 * module imports what it uses, so each arrow of the graph is an import the rules must allow.
 */
describe('the module graph', () => {
  let graph: GraphModule[];
  const files = moduleFiles();

  beforeAll(async () => {
    graph = await moduleGraph({ config: loadConfig({}), project: demoProject, logger: createLogger('silent') });
  });

  it("has CoreModule and ConfigModule as Tessera's only global modules, and TypeORM's module for the connection", () => {
    const globals = graph.filter((module) => module.global).map((module) => module.name);
    expect(globals.filter((name) => files.has(name)).sort()).toEqual(['ConfigModule', 'CoreModule']);
    expect(globals).toContain('TypeOrmCoreModule');
    expect(graph.find((module) => module.name === 'DatabaseModule')?.imports).toEqual(['TypeOrmModule']);
  });

  /** The arrows between Tessera's modules, each as the two files that define them. */
  function arrows(): Array<{ from: string; to: string }> {
    return graph.flatMap((module) =>
      module.imports
        .filter((name) => files.has(name) && files.has(module.name))
        .map((name) => ({ from: files.get(module.name)!, to: files.get(name)! })),
    );
  }

  /** Whether a file's source imports another (by its compiled `.js` name). */
  const importsFile = (from: string, to: string) =>
    readFileSync(join(PROJECT_ROOT, from), 'utf8').includes(`/${to.split('/').pop()!.replace(/\.ts$/, '.js')}'`);

  it('has no arrow the dependency rules forbid: each is an import of the module file, which the rules allow', () => {
    // A port the root wires (`UsersAdminModule.register({ imports: [TokensModule] })`) is an arrow the module's
    // own file does not import: the root draws it, so app.module.ts must import its target.
    const own = arrows().filter((arrow) => importsFile(arrow.from, arrow.to));
    const wiredByTheRoot = arrows().filter((arrow) => !importsFile(arrow.from, arrow.to));
    expect(own.length).toBeGreaterThan(20);
    expect(own.map((arrow) => ({ ...arrow, broken: broken(arrow.from, arrow.to) })).filter((arrow) => arrow.broken.length > 0)).toEqual([]);
    expect(wiredByTheRoot.filter((arrow) => !importsFile('src/app.module.ts', arrow.to))).toEqual([]);
    expect(wiredByTheRoot).toEqual([{ from: 'src/users/users-admin.module.ts', to: 'src/tokens/tokens.module.ts' }]);
  });

  it('would see an arrow the rules forbid', () => {
    expect(broken('src/data/data.module.ts', 'src/security/security.module.ts')).toEqual(['data-imports-only-the-base']);
    expect(broken('src/users/users.module.ts', 'src/tokens/tokens.module.ts')).toEqual(['users-stay-under-tokens']);
  });
});
