import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * For tests that run the package scripts as the README does (`npx -y pnpm@10.34.8 start`, less
 * npx, which forwards no signal): pnpm's own CLI, npm_execpath under `pnpm test`, else the `pnpm`
 * that `npx pnpm vitest` puts on PATH.
 */
export function findPnpmCli(): string | undefined {
  if (process.env.npm_execpath?.includes("pnpm")) return process.env.npm_execpath;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "pnpm");
    if (dir && existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}
