import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./dockerfile-instructions";

/**
 * The environment variables the code reads, found in its sources, for the checks of what an
 * operator sets: .env.example (deployment.test.ts) and deploy/compose.yaml (compose-topology.test.ts).
 */

/**
 * Read by the test harness (vitest.global-setup.ts sets TEST_RUN_ID and TEST_WORLDS_DIR; the
 * browser tests read CHROMIUM_PATH) or the shell, not by a deployed service.
 */
const NOT_DEPLOYMENT_SETTINGS = new Set([
  "CHROMIUM_PATH",
  "CI",
  "PATH",
  "TEST_DATABASE_URL",
  "TEST_LOG_LEVEL",
  "TEST_RUN_ID",
  "TEST_SERVER",
  "TEST_WORLDS_DIR",
]);

/**
 * Every variable the apps and packages read: the keys of each process's environment schema (the
 * `NAME: ...` properties of its env.ts), and any read of `env` by a property or an index elsewhere
 * (this comment names no variable in that form: this file is scanned too).
 */
export function variablesReadByCode(): Set<string> {
  const files = execFileSync("git", ["ls-files", "apps", "packages", "scripts"], { cwd: repoRoot, encoding: "utf8" })
    .split("\n")
    .filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.endsWith(".test.ts") && existsSync(path.join(repoRoot, file)));
  const patterns = [/\benv\.([A-Z][A-Z0-9_]*)/g, /\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g];
  const schemaKeys = /^\s+([A-Z][A-Z0-9_]*):/gm;
  const names = new Set<string>();
  for (const file of files) {
    const text = readFileSync(path.join(repoRoot, file), "utf8");
    for (const pattern of path.basename(file) === "env.ts" ? [...patterns, schemaKeys] : patterns)
      for (const match of text.matchAll(pattern)) names.add(match[1]!);
  }
  return new Set([...names].filter((name) => !NOT_DEPLOYMENT_SETTINGS.has(name)));
}
