// Bundles the admin CLI (src/cli.ts) into dist/cli.js; bin/directory-admin.mjs runs it, building
// first when a source changed. How, and the --if-stale flag: scripts/bundle-app.mjs.
import { defineAppBuild } from "../../scripts/bundle-app.mjs";

export const ensureBuilt = await defineAppBuild(import.meta.url, { cli: "src/cli.ts" });
