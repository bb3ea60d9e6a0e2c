// Bundles the server (src/main.ts), the webhook worker (src/worker-main.ts) and the modules the
// test harness starts servers with (src/server-modules.ts, for TEST_SERVER=dist) into dist/.
// How, and the --if-stale flag: scripts/bundle-app.mjs.
import { defineAppBuild } from "../../scripts/bundle-app.mjs";

export const ensureBuilt = await defineAppBuild(import.meta.url, {
  main: "src/main.ts",
  "worker-main": "src/worker-main.ts",
  "server-modules": "src/server-modules.ts",
});
