import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@directory/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPnpmCli } from "./find-pnpm-cli";
import { serverUnderTest } from "./testing";

/**
 * The service as production runs it: `pnpm build` bundles apps/server into dist/, then plain
 * `node` runs the bundle (no tsx, no TypeScript) over a fresh embedded database that it migrates
 * and seeds with the demo world; on PostgreSQL (TEST_DATABASE_URL) over a fresh empty database.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scratch = mkdtempSync(path.join(tmpdir(), "directory-built-"));
const pnpmCli = findPnpmCli();

let postgresDatabase: TestDatabase | undefined;
afterAll(async () => {
  await postgresDatabase?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** "close": the process has exited and its output is drained. */
  exited: Promise<number | null>;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, LOG_LEVEL: "info", ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
function waitFor(running: Run, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(running.output());
      if (!match) return;
      running.child.stdout.off("data", check);
      running.child.stderr.off("data", check);
      resolve(match);
    };
    running.child.stdout.on("data", check);
    running.child.stderr.on("data", check);
    check();
    void running.exited.then((code) => reject(new Error(`exited (${code}) before ${pattern}:\n${running.output()}`)));
  });
}

/** A bundle (path from the repository root) imports no workspace source and no TypeScript tooling; returns its text. */
function expectPlainNodeBundle(bundleFile: string): string {
  const bundle = readFileSync(path.join(repoRoot, bundleFile), "utf8");
  // Booleans, not toMatch: a failure would print the whole bundle.
  expect(/from\s*"@directory\//.test(bundle), `${bundleFile} imports a workspace package`).toBe(false);
  expect(/from\s*"(tsx|typescript|esbuild)["/]/.test(bundle), `${bundleFile} imports TypeScript tooling`).toBe(false);
  return bundle;
}

describe("the built service", () => {
  beforeAll(async () => {
    // The server's part of `pnpm build` (the SDK's part rewrites packages/sdk/dist, which the SDK's
    // own pack test may be reading at the same time); without pnpm at hand, the script it runs.
    const build = run(pnpmCli ? [pnpmCli, "--filter", "@directory/server", "build"] : ["apps/server/build.mjs"]);
    const code = await build.exited;
    expect(code, build.output()).toBe(0);
  }, 180_000);

  it("is what the suite's servers run when TEST_SERVER=dist, and the sources otherwise", async () => {
    const expected = process.env.TEST_SERVER === "dist" ? "/apps/server/dist/server-modules.js" : "/apps/server/src/server-modules.ts";
    expect(serverUnderTest.location.endsWith(expected)).toBe(true);
    expect(serverUnderTest.modules).toBe(await import(serverUnderTest.location));
  });

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

  it("node dist/main.js migrates, seeds, answers a search and shuts down cleanly on SIGTERM", async () => {
    const env: NodeJS.ProcessEnv = { PORT: "0", HOST: "127.0.0.1", DATA_DIR: path.join(scratch, "server"), DATABASE_URL: "", DEMO_SEED: "on" };
    if (process.env.TEST_DATABASE_URL) {
      postgresDatabase = await createTestDatabase({ seed: false });
      env.DATABASE_URL = postgresDatabase.url;
    }
    const server = run(["apps/server/dist/main.js"], env);
    const [, url] = await waitFor(server, /"url":"(http:\/\/[^"]+)"[^\n]*directory service listening/);
    expect(server.output()).toContain("demo world seeded");

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });

    const search = await fetch(`${url}/api/assistant-plugin?category=dentist&city=Mumbai`);
    expect(search.status).toBe(200);
    const answer = (await search.json()) as { businesses: { category: string; city: string }[] };
    expect(answer.businesses.length).toBeGreaterThan(0);
    expect(answer.businesses[0]).toMatchObject({ category: "Dentist", city: "Mumbai" });

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"signal":"SIGTERM"');
    expect(server.output()).toContain("directory service stopped");
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  }, 300_000);

  it("node dist/worker-main.js runs the webhook worker and stops on SIGTERM", async () => {
    const worker = run(["apps/server/dist/worker-main.js"], { DATA_DIR: path.join(scratch, "worker") });
    await waitFor(worker, /webhook worker running/);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain("webhook worker stopping");
  }, 120_000);
});
