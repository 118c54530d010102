import { ModulesContainer, NestFactory } from '@nestjs/core';
import type { AppParts } from './core.module.js';
import { AppModule } from './app.module.js';

/** One Nest module of the application as Nest's container holds it. */
export interface GraphModule {
  name: string;
  global: boolean;
  /** The modules it imports that are not global, by name, in the order Nest scanned them. */
  imports: string[];
}

/**
 * The application's module graph as Nest builds it: every module with the modules it imports.
 * Built in Nest's preview mode: the modules are scanned, nothing is instantiated, so no database
 * is opened. `npm run graph` prints it; `module-graph.spec.ts` holds it against the dependency rules.
 */
export async function moduleGraph(parts: AppParts): Promise<GraphModule[]> {
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(parts), { preview: true, logger: false });
  try {
    return modulesOf(context.get(ModulesContainer));
  } finally {
    await context.close();
  }
}

/** Nest's own module, in every graph: left out. */
const NEST_INTERNAL = 'InternalCoreModule';

function modulesOf(container: ModulesContainer): GraphModule[] {
  const modules = [...container.values()].filter((module) => module.metatype.name !== NEST_INTERNAL);
  // Nest links every global module into every module's imports: an arrow to a global module says nothing.
  return modules.map((module) => ({
    name: module.metatype.name,
    global: module.isGlobal,
    imports: [...module.imports].filter((imported) => !imported.isGlobal).map((imported) => imported.metatype.name),
  }));
}

/** The graph as lines of text: the global modules first, then `Module ──> imported, …` for the others. */
export function printModuleGraph(modules: readonly GraphModule[]): string {
  const line = (module: GraphModule) => `${module.name}${module.imports.length ? ` ──> ${module.imports.join(', ')}` : ''}`;
  return [
    ...modules.filter((module) => module.global).map((module) => `global: ${line(module)}`),
    ...modules.filter((module) => !module.global).map(line),
  ].join('\n');
}
