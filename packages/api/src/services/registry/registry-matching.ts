import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { distanceKm } from "@directory/db/gazetteer";
import { kebab } from "@directory/db/seed";
import type { RegistryScan } from "./registry-record";

/** How far a renamed-id record may be from the one it continues: a node redrawn as its building, a pin nudged. */
export const SAME_PLACE_METRES = 150;
/** Degrees around the area within which records we hold are considered (~1 km). */
const AREA_MARGIN_DEGREES = 0.01;

interface HeldRecord {
  record_id: string;
  name: string;
  lat: number;
  lng: number;
}

/**
 * Records whose id is new to us but which continue one we hold: OSM ids are stable, yet an element
 * can be deleted and drawn again (a shop node becomes its building's way) and an extract can be
 * renumbered by the tool that cut it. Such a record matches a held record of the same source that
 * this scan no longer has, with the same name (case, accents and punctuation aside) within
 * SAME_PLACE_METRES; the nearest wins, each held record at most once. Without this, every such
 * business would be removed and added again: a new id, its history and owner edits lost.
 * Returns new record id -> held record id.
 */
export async function matchMovedRecords(db: Db, scan: RegistryScan, source: string): Promise<Map<string, string>> {
  const area = scan.area;
  if (!area) return new Map();
  const held = rowsOf<HeldRecord>(
    await db.execute(sql`
      select record_id, name, lat, lng from registry_records
      where source = ${source} and lat between ${area.minLat - AREA_MARGIN_DEGREES} and ${area.maxLat + AREA_MARGIN_DEGREES}
        and lng between ${area.minLng - AREA_MARGIN_DEGREES} and ${area.maxLng + AREA_MARGIN_DEGREES}`),
  );
  const heldIds = new Set(held.map((record) => record.record_id));
  const inScan = new Set(scan.records.map((record) => record.recordId));
  const orphansByName = new Map<string, HeldRecord[]>();
  for (const record of held) {
    if (inScan.has(record.record_id)) continue;
    const key = kebab(record.name);
    orphansByName.set(key, [...(orphansByName.get(key) ?? []), record]);
  }
  const matches = new Map<string, string>();
  const taken = new Set<string>();
  for (const record of scan.records) {
    if (heldIds.has(record.recordId)) continue;
    const candidates = orphansByName.get(kebab(record.facts.name)) ?? [];
    let best: { id: string; metres: number } | null = null;
    for (const candidate of candidates) {
      if (taken.has(candidate.record_id)) continue;
      const metres = distanceKm(candidate.lat, candidate.lng, record.facts.coordinates.lat, record.facts.coordinates.lng) * 1000;
      if (metres <= SAME_PLACE_METRES && (!best || metres < best.metres)) best = { id: candidate.record_id, metres };
    }
    if (best) {
      matches.set(record.recordId, best.id);
      taken.add(best.id);
    }
  }
  return matches;
}
