import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@directory/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, waitFor } from "./built-fixtures";
import { serverUnderTest } from "./testing";

/**
 * The service as production runs it: plain `node` runs the bundle `pnpm build` wrote (no tsx, no
 * TypeScript) over a fresh embedded database that it migrates and seeds with the demo world; on
 * PostgreSQL (TEST_DATABASE_URL) over a fresh empty database. The build itself, and what the
 * bundles hold, are built-apps.test.ts's, which runs once.
 */
const scratch = mkdtempSync(path.join(tmpdir(), "directory-built-"));

let postgresDatabase: TestDatabase | undefined;
afterAll(async () => {
  await postgresDatabase?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the built service", () => {
  beforeAll(async () => {
    // The bundle of the sources as they are: rebuilt only when an input changed since `pnpm build`.
    const build = run(["apps/server/build.mjs", "--if-stale"]);
    const code = await build.exited;
    expect(code, build.output()).toBe(0);
  }, 180_000);

  it("is what the suite's servers run when TEST_SERVER=dist, and the sources otherwise", async () => {
    const expected = process.env.TEST_SERVER === "dist" ? "/apps/server/dist/server-modules.js" : "/apps/server/src/server-modules.ts";
    expect(serverUnderTest.location.endsWith(expected)).toBe(true);
    expect(serverUnderTest.modules).toBe(await import(serverUnderTest.location));
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
});
