import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@directory/db";
import { fileBlock, headerBlock, OSM_EXTRACTS, osmPbfFile, rawZlibBlob, zlibBlob } from "@directory/api/testing";

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

  it("refuses to take more than 20% of the source's businesses in the file's area out of service unless --allow-removals", async () => {
    // One business, in a file whose header claims the whole world: every business imported above would go.
    const world = join(dataDir, "whole-world.osm.pbf");
    const lone = { id: 1, lat: 47.14, lng: 9.52, tags: { name: "Lone Cafe", amenity: "cafe" }, timestamp: 1_700_000_000 };
    writeFileSync(world, osmPbfFile({ bbox: { minLat: -90, minLng: -180, maxLat: 90, maxLng: 180 } }, [lone]));
    // The refusal itself, dry run or not, is the service's (import-guards.test.ts); here, the flag's way through the CLI.
    const refused = await importOsm(world).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/would remove (\d+) of the \1 records .*more than 20%.* --allow-removals/) });
    const removable = Number(/would remove (\d+)/.exec(refused.stderr)![1]);
    expect(removable).toBeGreaterThan(100);
    const allowed = JSON.parse((await importOsm(world, "--dry-run", "--allow-removals", "--json")).stdout);
    expect(allowed).toMatchObject({ dryRun: true, added: 1, removed: removable });
  }, 120_000);

  it("refuses a corrupt file and a zlib bomb in one line naming the file and the block, without a stack", async () => {
    const header = fileBlock("OSMHeader", zlibBlob(headerBlock({})));
    const corrupt = join(dataDir, "corrupt.osm.pbf");
    writeFileSync(corrupt, Buffer.concat([header, fileBlock("OSMData", rawZlibBlob(Buffer.from("this was never zlib data"), 100))]));
    // 40 MiB of zeros in a few dozen KiB, declaring 1000 bytes.
    const bomb = join(dataDir, "bomb.osm.pbf");
    writeFileSync(bomb, Buffer.concat([header, fileBlock("OSMData", rawZlibBlob(deflateSync(Buffer.alloc(40 * 1024 * 1024)), 1000))]));
    const reasons = {
      [corrupt]: "the blob's zlib data is corrupt (incorrect header check)",
      [bomb]: "the blob inflates to more than the 33554432 bytes a PBF blob may have",
    };
    for (const [file, reason] of Object.entries(reasons)) {
      const failure = await importOsm(file).catch((error: { code: number; stderr: string }) => error);
      expect(failure).toMatchObject({ code: 1 });
      expect(failure.stderr.trim().split("\n")).toEqual([`reading ${file} ...`, `admin: OSM PBF file ${file}, block at byte ${header.length}: ${reason}`]);
    }
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
    const lines = page.split("\n").filter((line) => / import osm(-changes)? /.test(line) && line.startsWith("npx "));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const docsDataDir = mkdtempSync(join(tmpdir(), "directory-docs-import-"));
    try {
      for (const line of lines) {
        const words = line.replace(/\s+#.*$/, "").split(/\s+/);
        const args = words.slice(words.indexOf("import"));
        const env = { ...process.env, DATA_DIR: docsDataDir, DATABASE_URL: "" };
        const { stdout } = await run(process.execPath, [bin, ...args], { cwd: repoRoot, env, maxBuffer: 16 * 1024 * 1024 });
        if (args[1] === "osm-changes") {
          const summary = JSON.parse(stdout);
          expect(summary.files.map((file: { status: string }) => file.status)).toEqual(["applied", "applied"]);
          expect(summary.created * summary.changed * summary.removed * summary.ignored).toBeGreaterThan(0);
          // Given again, as an operator reads it: each file skipped, nothing written.
          const again = await run(process.execPath, [bin, ...args.filter((arg) => arg !== "--json")], { cwd: repoRoot, env, maxBuffer: 16 * 1024 * 1024 });
          expect(again.stdout).toMatch(/osm-docs: 2 change file\(s\)/);
          expect(again.stdout).toMatch(/\.1\.osc\.gz: already applied \(\d+ created, \d+ modified, \d+ deleted elements; newest change 2014-/);
          expect(again.stdout).toMatch(/businesses created 0, changed 0, removed 0; element changes ignored \(no business\) 0/);
          const unknown = await run(process.execPath, [bin, "import", "osm-changes", args[2]!, "--source", "nowhere"], { cwd: repoRoot, env }).catch(
            (error: { code: number; stderr: string }) => error,
          );
          expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/admin: source "nowhere" has no snapshot .*import osm <file>/) });
        } else if (args.includes("--json")) expect(JSON.parse(stdout).records).toBeGreaterThan(100);
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
