import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Db } from "@directory/db";
import { importFeed, type ImportOptions, type ImportSummary } from "./import-registry";
import { readOsmChangeFile, type OsmChangeFile } from "./osm/osm-change-file";
import { osmRegistryFeed } from "./osm/osm-feed";
import { mergedChanges, writeChangedSnapshot } from "./osm/osm-snapshot";
import { newSnapshotFileName, osmSourceState, replaceSnapshot, snapshotDirectory } from "./osm-snapshots";

/*
 * `directory-admin import osm-changes`: osmChange files applied, in the order given, to the
 * source's snapshot (osm-snapshots.ts), and the changed snapshot imported as a diff through the
 * one import and its write path. A file applied before (same bytes) is skipped; one older than the
 * newest change applied is refused unless forced, before anything is written. The source's row
 * moves to the new snapshot only once its import is in: a run killed half-way leaves whole batches
 * and the old snapshot, and running it again completes the diff.
 */

export interface OsmChangesOptions extends Pick<ImportOptions, "source" | "allowRemovals" | "concurrency" | "onProgress"> {
  files: readonly string[];
  /** DATA_DIR: where the source's snapshot is kept. */
  dataDir: string;
  /** Applies a file older than the newest change applied (`--force`). */
  force?: boolean;
}

export interface OsmChangeFileReport {
  file: string;
  status: "applied" | "already applied";
  /** The newest change in the file (ISO 8601), when it dates its changes. */
  newestChangeAt: string | null;
  creates: number;
  modifies: number;
  deletes: number;
}

export interface OsmChangesSummary {
  source: string;
  files: OsmChangeFileReport[];
  /** Businesses added (or back in service), changed and taken out of service by the files. */
  created: number;
  changed: number;
  removed: number;
  /** Element changes that touched no business element (roads, buildings' nodes...). */
  ignored: number;
  /** The newest change applied to the source now (ISO 8601). */
  newestChangeAt: string | null;
  /** The import of the changed snapshot; null when every file was applied before. */
  import: ImportSummary | null;
}

export class OsmChangesRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "OsmChangesRefused";
  }
}

export async function applyOsmChanges(db: Db, options: OsmChangesOptions): Promise<OsmChangesSummary> {
  const { source, dataDir } = options;
  const state = await osmSourceState(db, source);
  if (!state)
    throw new OsmChangesRefused(`source "${source}" has no snapshot to apply changes to: import its extract first (directory-admin import osm <file>)`);
  const directory = snapshotDirectory(dataDir);
  const snapshot = join(directory, state.snapshotFile);
  if (!existsSync(snapshot)) {
    throw new OsmChangesRefused(
      `the snapshot of source "${source}" (${snapshot}) is missing from DATA_DIR: import its extract again (directory-admin import osm <file>)`,
    );
  }

  // Every file is read and checked before anything is written.
  const applied = new Set(state.appliedChangeFiles);
  let newest = state.newestChangeAt?.getTime();
  const reports: OsmChangeFileReport[] = [];
  const toApply: OsmChangeFile[] = [];
  for (const file of options.files) {
    const changes = await readOsmChangeFile(file);
    const report: OsmChangeFileReport = {
      file,
      status: "applied",
      newestChangeAt: changes.newestChangeAt === undefined ? null : new Date(changes.newestChangeAt).toISOString(),
      creates: changes.counts.create,
      modifies: changes.counts.modify,
      deletes: changes.counts.delete,
    };
    reports.push(report);
    if (applied.has(changes.sha256)) {
      report.status = "already applied";
      continue;
    }
    if (!options.force && newest !== undefined && changes.newestChangeAt !== undefined && changes.newestChangeAt < newest) {
      throw new OsmChangesRefused(
        `${file} is older than the changes already applied to source "${source}": its newest change is ${report.newestChangeAt}, the newest applied ${new Date(newest).toISOString()}. Apply change files in order, or give --force to apply it anyway`,
      );
    }
    applied.add(changes.sha256);
    toApply.push(changes);
    if (changes.newestChangeAt !== undefined) newest = Math.max(newest ?? 0, changes.newestChangeAt);
  }
  const summary: OsmChangesSummary = {
    source,
    files: reports,
    created: 0,
    changed: 0,
    removed: 0,
    ignored: 0,
    newestChangeAt: newest === undefined ? null : new Date(newest).toISOString(),
    import: null,
  };
  if (toApply.length === 0) return summary;

  const fileName = newSnapshotFileName(source);
  const next = join(directory, fileName);
  try {
    const counts = await writeChangedSnapshot(snapshot, mergedChanges(toApply), newest, next);
    const imported = await importFeed(db, osmRegistryFeed(next, { source }), {
      source,
      allowRemovals: options.allowRemovals,
      concurrency: options.concurrency,
      onProgress: options.onProgress,
    });
    await replaceSnapshot(db, dataDir, {
      source,
      snapshotFile: fileName,
      newestChangeAt: newest === undefined ? null : new Date(newest),
      appliedChangeFiles: [...state.appliedChangeFiles, ...toApply.map((file) => file.sha256)],
    });
    return {
      ...summary,
      created: imported.added + imported.reactivated,
      changed: imported.changed,
      removed: imported.removed,
      ignored: counts.ignored,
      import: imported,
    };
  } catch (error) {
    await rm(next, { force: true });
    throw error;
  }
}
