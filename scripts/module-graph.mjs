// npm run graph: prints the application's Nest module graph (after `npm run build`): the global
// modules, then every other module with the modules it imports. Nothing is instantiated (Nest's
// preview mode), so no database is opened.
import 'reflect-metadata';

/**
 * The compiled service (imported by URL: dist/ is built output, not part of the type check).
 * @param {string} path
 * @returns {Promise<unknown>}
 */
const compiled = (path) => import(new URL(`../dist/src/${path}`, import.meta.url).href);

/**
 * What the four compiled modules export, as their sources declare it (a dynamic import by URL is
 * untyped, and every use of it would be unchecked).
 * @typedef {[
 *   typeof import('../src/config/app-config.js'),
 *   typeof import('../src/module-graph.js'),
 *   typeof import('../src/observability/logger.js'),
 *   typeof import('../src/project/project.js'),
 * ]} CompiledModules
 */
const [{ loadConfig }, { moduleGraph, printModuleGraph }, { createLogger }, { project }] = /** @type {CompiledModules} */ (
  await Promise.all([
    compiled('config/app-config.js'),
    compiled('module-graph.js'),
    compiled('observability/logger.js'),
    compiled('project/project.js'),
  ])
);
const modules = await moduleGraph({ config: loadConfig({}), project, logger: createLogger('silent') });
process.stdout.write(`${printModuleGraph(modules)}\n`);
