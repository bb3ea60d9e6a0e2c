import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { distanceKm } from "@directory/db/gazetteer";
import { kebab } from "@directory/db/seed";
import { RecordIdSet } from "./record-id-set";
import type { BoundingBox, RegistryRecord } from "./registry-record";

/** How far a renamed-id record may be from the one it continues: a node redrawn as its building, a pin nudged. */
export const SAME_PLACE_METRES = 150;
/** Degrees around the area within which records we hold are considered (~1 km). */
const AREA_MARGIN_DEGREES = 0.01;
/** Held records read per query: the import never holds them all as rows. */
const PAGE_ROWS = 10_000;

interface Orphan {
  record_id: string;
  lat: number;
  lng: number;
  /** In service inside the area itself: a removal, unless a record continues it. */
  removable: boolean;
}

/** What the database holds of a source around a file's area, as the import needs it before writing. */
export interface HeldRecords {
  /** Held records the file still lists: a record under one of these ids continues itself. */
  listed: RecordIdSet;
  /** Held records the file no longer lists, by name (kebab): what a record with a new id may continue. */
  orphansByName: Map<string, Orphan[]>;
  /** Records in service inside the area, and how many of them the file no longer lists. */
  inService: number;
  unlistedInService: number;
}

/**
 * Reads the source's records around the area page by page, keeping of each only its id (8 bytes,
 * record-id-set.ts) unless the file no longer lists it: those few are kept whole, to be matched.
 */
export async function heldRecords(db: Db, source: string, area: BoundingBox | null, listedInFile: RecordIdSet): Promise<HeldRecords> {
  const held: HeldRecords = { listed: new RecordIdSet(), orphansByName: new Map(), inService: 0, unlistedInService: 0 };
  if (!area) return held;
  let after = "";
  for (;;) {
    const rows = rowsOf<{ record_id: string; name: string; lat: number; lng: number; in_service_in_area: boolean; second_id: boolean }>(
      await db.execute(sql`
        select record_id, name, lat, lng, same_as is not null as second_id,
          (removed_at is null and lat between ${area.minLat} and ${area.maxLat} and lng between ${area.minLng} and ${area.maxLng}) as in_service_in_area
        from registry_records
        where source = ${source} and record_id > ${after}
          and lat between ${area.minLat - AREA_MARGIN_DEGREES} and ${area.maxLat + AREA_MARGIN_DEGREES}
          and lng between ${area.minLng - AREA_MARGIN_DEGREES} and ${area.maxLng + AREA_MARGIN_DEGREES}
        order by record_id limit ${PAGE_ROWS}`),
    );
    for (const row of rows) {
      const listed = listedInFile.has(row.record_id);
      if (listed) held.listed.add(row.record_id);
      // A second id of a business (registry-record-rows.ts) neither counts it twice nor is continued by another record.
      if (row.second_id) continue;
      if (row.in_service_in_area) held.inService++;
      if (listed) continue;
      if (row.in_service_in_area) held.unlistedInService++;
      const key = kebab(row.name);
      const orphan = { record_id: row.record_id, lat: row.lat, lng: row.lng, removable: row.in_service_in_area };
      held.orphansByName.set(key, [...(held.orphansByName.get(key) ?? []), orphan]);
    }
    if (rows.length < PAGE_ROWS) return held;
    after = rows[rows.length - 1]!.record_id;
  }
}

/**
 * Records whose id is new to us but which continue one we hold: OSM ids are stable, yet an element
 * can be deleted and drawn again (a shop node becomes its building's way) and an extract can be
 * renumbered by the tool that cut it. Such a record matches a held record of the same source that
 * the file no longer lists, with the same name (case, accents and punctuation aside) within
 * SAME_PLACE_METRES; the nearest wins, each held record at most once, records taken in the file's
 * order. Without this, every such business would be removed and added again: a new id, its
 * history and owner edits lost.
 */
export class MovedRecords {
  private readonly taken = new Set<string>();
  /** Held records in service in the area that a record continues: not removals. */
  continuedInService = 0;

  constructor(private readonly held: HeldRecords) {}

  /** New record id -> the held record id it continues, for one batch. */
  match(records: readonly RegistryRecord[]): Map<string, string> {
    const matches = new Map<string, string>();
    if (this.held.orphansByName.size === 0) return matches;
    for (const record of records) {
      if (this.held.listed.has(record.recordId)) continue;
      const candidates = this.held.orphansByName.get(kebab(record.facts.name)) ?? [];
      let best: { orphan: Orphan; metres: number } | null = null;
      for (const orphan of candidates) {
        if (this.taken.has(orphan.record_id)) continue;
        const metres = distanceKm(orphan.lat, orphan.lng, record.facts.coordinates.lat, record.facts.coordinates.lng) * 1000;
        if (metres <= SAME_PLACE_METRES && (!best || metres < best.metres)) best = { orphan, metres };
      }
      if (best) {
        matches.set(record.recordId, best.orphan.record_id);
        this.taken.add(best.orphan.record_id);
        if (best.orphan.removable) this.continuedInService++;
      }
    }
    return matches;
  }
}
