#!/usr/bin/env node
// The admin CLI's command: plain node on the bundle (built first when a source changed; the build
// line goes to stderr). `npx -y pnpm@10.34.8 exec directory-admin ...` runs it with nothing of
// pnpm's on stdout (a `pnpm admin` script prints its "> business-directory@ admin" banner there),
// so `--json` output pipes as it is.
import { ensureBuilt } from "../build.mjs";

await ensureBuilt();
await import("../dist/cli.js");
