import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What each OpenStreetMap source was last brought up to (registry/osm/osm-source-states.ts): the
 * snapshot file it holds, under DATA_DIR, that change files are applied to; the newest change
 * applied; and the fingerprints of the change files applied since that snapshot, so one given
 * twice is skipped and an older one refused.
 */
export const osmSourceStates = pgTable("osm_source_states", {
  source: text("source").primaryKey(),
  /** The file's name inside DATA_DIR/osm-snapshots. */
  snapshotFile: text("snapshot_file").notNull(),
  newestChangeAt: timestamp("newest_change_at", { withTimezone: true }),
  /** SHA-256 (hex) of each change file applied since the snapshot was imported, oldest first. */
  appliedChangeFiles: jsonb("applied_change_files").$type<string[]>().notNull().default([]),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
