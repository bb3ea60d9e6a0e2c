import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, rowsOf, type Database, type Db } from "@directory/db";
import { loadGazetteer } from "@directory/db/gazetteer";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { importFeed } from "./import-registry";
import { osmRegistryFeed } from "./osm/osm-feed";
import { OSM_EXTRACTS } from "./osm/test-extracts";

/*
 * Safe to kill: an import killed mid-way (SIGKILL, no chance to clean up) has committed whole
 * batches only, and running it again leaves the database as one uninterrupted import would.
 */

const child = fileURLToPath(new URL("./import-child.ts", import.meta.url));
const BATCH = 10;

let reference: TestDatabase;
let interrupted: TestDatabase | undefined;
let dataDir: string;
/** Where the child imports: the PostgreSQL test database's URL, else a PGlite folder only it holds while it runs. */
let target: string;

beforeAll(async () => {
  reference = await createTestDatabase({ seed: false });
  dataDir = await mkdtemp(path.join(tmpdir(), "import-interrupted-"));
  if (reference.url) {
    interrupted = await createTestDatabase({ seed: false });
    target = interrupted.url!;
  } else target = path.join(dataDir, "pglite");
}, 120_000);
afterAll(async () => {
  await reference?.destroy();
  await interrupted?.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs the child; with killAfter, SIGKILLs it as soon as it reports that many records done. */
function runImport(file: string, killAfter?: number): Promise<{ signal: NodeJS.Signals | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, file, String(BATCH), target], { stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        lines.push(line);
        const done = /^done (\d+)$/.exec(line);
        if (killAfter !== undefined && done && Number(done[1]) >= killAfter) proc.kill("SIGKILL");
      }
    });
    proc.on("error", reject);
    proc.on("close", (code, signal) => (code === 0 || signal ? resolve({ signal, lines }) : reject(new Error(`import child exited ${code}: ${stderr}`))));
  });
}

/** Opens what the child wrote (the PGlite folder once the child is gone). */
async function openTarget(): Promise<Database> {
  return interrupted ? { ...interrupted, close: async () => {} } : createDatabase({ dataDir: target });
}

/** Every record with its business's state and current claims, keyed by record id: comparable across databases. */
async function snapshot(db: Db) {
  return rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.record_id, r.name, r.lat, r.lng, r.observed_at::text, r.removed_at is null as listed, b.status, b.inactive_reason,
        (select jsonb_agg(jsonb_build_array(c.property, c.value, c.source, c.confidence, c.observed_at::text) order by c.property)
           from claims c where c.business_id = b.id and c.superseded_by is null) as claims
      from registry_records r join businesses b on b.id = r.business_id
      order by r.record_id`),
  );
}

describe("an OSM import killed mid-way", () => {
  it("leaves whole batches only, and run again equals an import that was never interrupted", async () => {
    const gazetteer = loadGazetteer();
    for (const file of [OSM_EXTRACTS.liechtenstein2013, OSM_EXTRACTS.liechtenstein2015]) {
      await importFeed(reference.db, osmRegistryFeed(file, { gazetteer }), { source: "openstreetmap", batchSize: BATCH });
    }
    expect((await runImport(OSM_EXTRACTS.liechtenstein2013)).signal).toBeNull();

    // The 2015 snapshot as a diff (added, changed, renumbered, removed), killed after three batches.
    const killed = await runImport(OSM_EXTRACTS.liechtenstein2015, 3 * BATCH);
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.lines.some((line) => line.startsWith("{"))).toBe(false);

    const halfway = await openTarget();
    try {
      // A batch writes its records and its businesses' claims together or not at all: every
      // record's name is its business's current registry name, and no record is removed yet.
      const [state] = rowsOf<{ records: number; mismatched: number; removed: number }>(
        await halfway.db.execute(sql`
          select count(*)::int as records,
            count(*) filter (where not exists (
              select 1 from claims c where c.business_id = r.business_id and c.property = 'name' and c.superseded_by is null
                and c.source = 'openstreetmap' and c.value #>> '{}' = r.name))::int as mismatched,
            count(*) filter (where r.removed_at is not null)::int as removed
          from registry_records r`),
      );
      expect(state).toMatchObject({ mismatched: 0, removed: 0 });
      expect(state!.records).toBeGreaterThan(100);
      const partly = await snapshot(halfway.db);
      expect(partly).not.toEqual(await snapshot(reference.db));
    } finally {
      await halfway.close();
    }

    const rerun = await runImport(OSM_EXTRACTS.liechtenstein2015);
    expect(rerun.signal).toBeNull();
    expect(JSON.parse(rerun.lines.at(-1)!).removed).toBeGreaterThan(0);
    const finished = await openTarget();
    try {
      expect(await snapshot(finished.db)).toEqual(await snapshot(reference.db));
    } finally {
      await finished.close();
    }
  }, 300_000);
});
