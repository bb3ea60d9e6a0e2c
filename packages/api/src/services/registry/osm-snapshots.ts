import { randomUUID } from "node:crypto";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { osmSourceStates, type Db } from "@directory/db";
import { readOsmPbf } from "./osm/pbf-reader";

/*
 * Each OpenStreetMap source's snapshot: the extract it was last brought up to, kept as a file in
 * DATA_DIR/osm-snapshots (change files are applied to it, osm-changes.ts), and its row in
 * osm_source_states. A row names its own file (a new name each time), so two databases sharing a
 * DATA_DIR never read each other's snapshot, and a run killed before its row changed leaves the
 * row pointing at the old file, still whole.
 */

/** The fingerprints of applied change files kept per source: enough to know a recent file again; an older one is refused by its date anyway. */
export const MAX_REMEMBERED_CHANGE_FILES = 5_000;

export type OsmSourceState = typeof osmSourceStates.$inferSelect;

export const snapshotDirectory = (dataDir: string) => join(dataDir, "osm-snapshots");

export function newSnapshotFileName(source: string): string {
  return `${source}-${randomUUID()}.osm.pbf`;
}

export async function osmSourceState(db: Db, source: string): Promise<OsmSourceState | null> {
  const [row] = await db.select().from(osmSourceStates).where(eq(osmSourceStates.source, source));
  return row ?? null;
}

/**
 * After an extract's import: a copy of it becomes the source's snapshot, as current as its header
 * says (or its newest edit), with no change file applied since. The old snapshot file goes.
 */
export async function keepImportedSnapshot(db: Db, source: string, extract: string, dataDir: string): Promise<OsmSourceState> {
  const directory = snapshotDirectory(dataDir);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const fileName = newSnapshotFileName(source);
  await copyFile(extract, join(directory, fileName));
  return replaceSnapshot(db, dataDir, { source, snapshotFile: fileName, newestChangeAt: await extractCurrentAt(extract), appliedChangeFiles: [] });
}

/** Points the source at a new snapshot file (already in place), then removes the one it replaces. */
export async function replaceSnapshot(
  db: Db,
  dataDir: string,
  next: Pick<OsmSourceState, "source" | "snapshotFile" | "newestChangeAt" | "appliedChangeFiles">,
): Promise<OsmSourceState> {
  const previous = await osmSourceState(db, next.source);
  const row = { ...next, appliedChangeFiles: next.appliedChangeFiles.slice(-MAX_REMEMBERED_CHANGE_FILES), updatedAt: new Date() };
  const [saved] = await db.insert(osmSourceStates).values(row).onConflictDoUpdate({ target: osmSourceStates.source, set: row }).returning();
  if (previous && previous.snapshotFile !== next.snapshotFile) await rm(join(snapshotDirectory(dataDir), previous.snapshotFile), { force: true });
  return saved!;
}

/** Stops the read once the header has said all that is asked. */
class HeaderSufficed extends Error {}

/** How current an extract is: its header's replication time, else its newest edit (one pass more). */
async function extractCurrentAt(file: string): Promise<Date | null> {
  let newestEdit = 0;
  try {
    await readOsmPbf(
      file,
      { withTags: false, withInfo: true },
      {
        header(header) {
          if (header.osmosis_replication_timestamp) throw new HeaderSufficed(String(header.osmosis_replication_timestamp));
        },
        element(element) {
          const edited = element.info?.timestamp ?? 0;
          if (edited > newestEdit) newestEdit = edited;
        },
      },
    );
  } catch (error) {
    if (error instanceof HeaderSufficed) return new Date(Number(error.message) * 1000);
    throw error;
  }
  return newestEdit > 0 ? new Date(Math.min(newestEdit, Date.now())) : null;
}
