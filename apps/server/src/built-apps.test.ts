import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPlainNodeBundle, repoRoot, run, waitFor } from "./built-fixtures";
import { findPnpmCli } from "./find-pnpm-cli";

/**
 * The build as production uses it: `pnpm build` bundles apps/server, the admin CLI and the stdio
 * MCP server into dist/ for plain `node` (no tsx, no TypeScript). The worker runs on an embedded
 * database whatever the pass; the server on each driver is built-server.test.ts.
 */
const scratch = mkdtempSync(path.join(tmpdir(), "directory-built-apps-"));
const pnpmCli = findPnpmCli();

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("the built apps", () => {
  beforeAll(async () => {
    // The server's part of `pnpm build` (the SDK's part rewrites packages/sdk/dist, which the SDK's
    // own pack test may be reading at the same time); without pnpm at hand, the script it runs.
    const build = run(pnpmCli ? [pnpmCli, "--filter", "@directory/server", "build"] : ["apps/server/build.mjs"]);
    const code = await build.exited;
    expect(code, build.output()).toBe(0);
  }, 180_000);

  it("bundles the workspace packages and leaves npm packages to node_modules", () => {
    for (const entry of ["main.js", "worker-main.js"]) {
      const bundle = expectPlainNodeBundle(path.join("apps/server/dist", entry));
      expect(/from\s*"pino"/.test(bundle), `${entry} bundled pino`).toBe(true);
    }
  });

  it("builds the admin CLI and the stdio MCP server the same way, and their bins run them with plain node", async () => {
    for (const app of ["admin", "mcp"]) {
      const build = run([`apps/${app}/build.mjs`]);
      expect(await build.exited, build.output()).toBe(0);
    }
    for (const bundleFile of ["apps/admin/dist/cli.js", "apps/mcp/dist/stdio.js"]) expectPlainNodeBundle(bundleFile);
    for (const bin of ["apps/admin/bin/directory-admin.mjs", "apps/mcp/bin/directory-mcp.mjs"]) {
      expect(readFileSync(path.join(repoRoot, bin), "utf8"), bin).toMatch(/^#!\/usr\/bin\/env node\n/);
    }
    const help = run(["apps/admin/bin/directory-admin.mjs", "--help"]);
    expect(await help.exited, help.output()).toBe(0);
    expect(help.output()).toContain("keys");
  });

  it("node dist/worker-main.js runs the webhook worker and stops on SIGTERM", async () => {
    const worker = run(["apps/server/dist/worker-main.js"], { DATA_DIR: path.join(scratch, "worker") });
    await waitFor(worker, /webhook worker running/);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain("webhook worker stopping");
  }, 120_000);
});
