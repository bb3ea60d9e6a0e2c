// Bundles the server (src/main.ts), the webhook worker (src/worker-main.ts) and the modules the
// test harness starts servers with (src/server-modules.ts, for TEST_SERVER=dist) into dist/.
// How, and the --if-stale flag: scripts/bundle-app.mjs.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, isMainModule } from "../../scripts/bundle-app.mjs";

const appDir = path.dirname(fileURLToPath(import.meta.url));
const entryPoints = { main: "src/main.ts", "worker-main": "src/worker-main.ts", "server-modules": "src/server-modules.ts" };

export const ensureBuilt = () => buildApp(appDir, entryPoints, { onlyIfStale: true });

if (isMainModule(import.meta.url)) await buildApp(appDir, entryPoints, { onlyIfStale: process.argv.includes("--if-stale") });
