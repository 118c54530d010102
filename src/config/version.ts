import { PACKAGE_VERSION } from './project-root.js';

/** The running Tessera version, from package.json. */
export const TESSERA_VERSION: string = PACKAGE_VERSION;
