import { randomUUID } from "node:crypto";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { osmSourceStates, type Db } from "@directory/db";
import type { RegistrySurvey } from "./registry-record";

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
 * After an extract's import: a copy of it becomes the source's snapshot, as current as the
 * import's survey found it (its header's replication time, else its newest edit: the survey read
 * every element already, so the extract is not read again for it), with no change file applied
 * since. The old snapshot file goes.
 */
export async function keepImportedSnapshot(
  db: Db,
  source: string,
  extract: string,
  dataDir: string,
  survey: Pick<RegistrySurvey, "currentAt">,
): Promise<OsmSourceState> {
  const directory = snapshotDirectory(dataDir);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const fileName = newSnapshotFileName(source);
  await copyFile(extract, join(directory, fileName));
  return replaceSnapshot(db, dataDir, { source, snapshotFile: fileName, newestChangeAt: survey.currentAt, appliedChangeFiles: [] });
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
