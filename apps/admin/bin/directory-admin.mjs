#!/usr/bin/env node
// The admin CLI's command. `npx -y pnpm@10.34.8 exec directory-admin ...` runs it with nothing
// of pnpm's on stdout (a `pnpm admin` script prints its "> business-directory@ admin" banner
// there), so `--json` output pipes as it is.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
