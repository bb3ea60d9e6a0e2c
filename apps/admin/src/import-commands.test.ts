import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@directory/db";
import { OSM_EXTRACTS } from "@directory/api/testing";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../bin/directory-admin.mjs", import.meta.url));

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "directory-import-"));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The CLI on the embedded database in dataDir, as an operator runs it (no DATABASE_URL). */
function importOsm(...args: string[]) {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
  return run(process.execPath, [bin, "import", "osm", ...args], { env, maxBuffer: 16 * 1024 * 1024 });
}

describe("directory-admin import osm (embedded database)", () => {
  it("imports a real extract and prints the summary as one JSON object; a dry run of it again changes nothing", async () => {
    const { stdout } = await importOsm(OSM_EXTRACTS.liechtenstein2013, "--json");
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ source: "openstreetmap", dryRun: false, changed: 0, removed: 0, reactivated: 0 });
    expect(summary.added).toBeGreaterThan(100);
    expect(Object.keys(summary.unmappedTags).length).toBeGreaterThan(0);
    expect(summary.skipped["not a business"]).toBeGreaterThan(0);

    const again = JSON.parse((await importOsm(OSM_EXTRACTS.liechtenstein2013, "--dry-run", "--json")).stdout);
    expect(again).toMatchObject({ dryRun: true, added: 0, changed: 0, unchanged: summary.added });
  }, 120_000);

  it("refuses a file that is not PBF, a truncated one and a bad --source, naming the problem, exiting non-zero, writing nothing", async () => {
    const notPbf = join(dataDir, "notes.txt");
    writeFileSync(notPbf, "this is not an OpenStreetMap extract\n");
    const truncated = join(dataDir, "truncated.osm.pbf");
    const whole = readFileSync(OSM_EXTRACTS.andorra2013);
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));

    await expect(importOsm(notPbf)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/Not an OSM PBF file: .*notes\.txt/) });
    await expect(importOsm(truncated)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/truncated\.osm\.pbf/) });
    await expect(importOsm(OSM_EXTRACTS.andorra2013, "--source", "Bad Source!")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--source "Bad Source!" is not a source name/),
    });
    // Andorra never went in: a dry run of it would add every one of its businesses.
    const andorra = JSON.parse((await importOsm(OSM_EXTRACTS.andorra2013, "--dry-run", "--json")).stdout);
    expect(andorra.added).toBe(andorra.records);
  }, 120_000);

  it("runs the import lines of docs/osm-import.md as written, from the repository root", async () => {
    const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
    const page = readFileSync(join(repoRoot, "docs/osm-import.md"), "utf8");
    const lines = page.split("\n").filter((line) => / import osm /.test(line) && line.startsWith("npx "));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const docsDataDir = mkdtempSync(join(tmpdir(), "directory-docs-import-"));
    try {
      for (const line of lines) {
        const words = line.replace(/\s+#.*$/, "").split(/\s+/);
        const args = words.slice(words.indexOf("import"));
        const env = { ...process.env, DATA_DIR: docsDataDir, DATABASE_URL: "" };
        const { stdout } = await run(process.execPath, [bin, ...args], { cwd: repoRoot, env, maxBuffer: 16 * 1024 * 1024 });
        if (args.includes("--json")) expect(JSON.parse(stdout).records).toBeGreaterThan(100);
        else expect(stdout).toMatch(/added \d+, changed \d+, unchanged \d+, removed \d+, reactivated \d+/);
      }
    } finally {
      rmSync(docsDataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("says clearly when a server holds the embedded database", async () => {
    // The server opens DATA_DIR/pglite, as databaseOptionsOf (packages/db/src/env.ts) says.
    const holder = await createDatabase({ dataDir: join(dataDir, "pglite") });
    try {
      await expect(importOsm(OSM_EXTRACTS.andorra2013)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/is in use by process \d+/) });
    } finally {
      await holder.close();
    }
  }, 120_000);
});
