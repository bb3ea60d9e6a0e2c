// Bundles the stdio MCP server (src/stdio.ts) into dist/stdio.js; bin/directory-mcp.mjs runs it,
// building first when a source changed. How, and the --if-stale flag: scripts/bundle-app.mjs.
import { defineAppBuild } from "../../scripts/bundle-app.mjs";

export const ensureBuilt = await defineAppBuild(import.meta.url, { stdio: "src/stdio.ts" });
