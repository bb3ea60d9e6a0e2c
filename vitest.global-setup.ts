import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { dropRunTemplates } from "@directory/db/test-worlds";

/**
 * Once per test run: names the run and its scratch folder, so each test world is built once and
 * shared by every file (packages/db/src/test-worlds.ts), and drops the run's worlds at the end.
 * TEST_SERVER=dist runs the suite against the bundle: it is built first when a source changed.
 */
export default function setup(): () => Promise<void> {
  // Each vitest project runs this setup in the same process: the first one names the run.
  if (process.env.TEST_RUN_ID) return async () => {};
  if (process.env.TEST_SERVER === "dist") {
    execFileSync(process.execPath, [fileURLToPath(new URL("apps/server/build.mjs", import.meta.url)), "--if-stale"], { stdio: "inherit" });
  }
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const worldsDir = mkdtempSync(path.join(tmpdir(), "directory-test-worlds-"));
  // Test files run in child processes, which inherit this environment.
  process.env.TEST_RUN_ID = runId;
  process.env.TEST_WORLDS_DIR = worldsDir;
  return async () => {
    rmSync(worldsDir, { recursive: true, force: true });
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) await dropRunTemplates(serverUrl, runId);
  };
}
