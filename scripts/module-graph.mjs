// npm run graph: prints the application's Nest module graph (after `npm run build`): the global
// modules, then every other module with the modules it imports. Nothing is instantiated (Nest's
// preview mode), so no database is opened.
import 'reflect-metadata';

/**
 * A module of the compiled service (dist/ is built output, outside the type check: each use
 * below names its source module's type).
 * @param {string} path under src/, as `.js`
 * @returns {Promise<unknown>}
 */
const compiled = (path) => import(new URL(`../dist/src/${path}`, import.meta.url).href);

const { loadConfig } = /** @type {typeof import('../src/config/app-config.js')} */ (await compiled('config/app-config.js'));
const { moduleGraph, printModuleGraph } = /** @type {typeof import('../src/module-graph.js')} */ (await compiled('module-graph.js'));
const { createLogger } = /** @type {typeof import('../src/observability/logger.js')} */ (await compiled('observability/logger.js'));
const { project } = /** @type {typeof import('../src/project/project.js')} */ (await compiled('project/project.js'));

const modules = await moduleGraph({ config: loadConfig({}), project, logger: createLogger('silent') });
process.stdout.write(`${printModuleGraph(modules)}\n`);
