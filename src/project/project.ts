/**
 * The API project this service serves: out of the box, the demo (`src/demo/`).
 *
 * Start from your own database with `npm run generate -- --from <DATABASE_URL> --name <project> --force`,
 * or from nothing with `npm run generate -- --empty --name <project> --force`; both replace this
 * folder. `npm run generate -- --demo --force` puts this file back.
 */
export { demoProject as project } from '../demo/project.js';
