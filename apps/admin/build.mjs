// Bundles the admin CLI (src/cli.ts) into dist/cli.js; bin/directory-admin.mjs runs it, building
// first when a source changed. How, and the --if-stale flag: scripts/bundle-app.mjs.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, isMainModule } from "../../scripts/bundle-app.mjs";

const appDir = path.dirname(fileURLToPath(import.meta.url));
const entryPoints = { cli: "src/cli.ts" };

export const ensureBuilt = () => buildApp(appDir, entryPoints, { onlyIfStale: true });

if (isMainModule(import.meta.url)) await buildApp(appDir, entryPoints, { onlyIfStale: process.argv.includes("--if-stale") });
