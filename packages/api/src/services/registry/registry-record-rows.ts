import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { setInService } from "../claims/lifecycle";
import { textList, uuidList } from "../shared/sql-lists";
import type { RecordIdSet } from "./record-id-set";
import type { BoundingBox, RegistryRecord } from "./registry-record";

const PAGE_ROWS = 10_000;

/*
 * The registry_records rows an import keeps: which record of a source stands for which business,
 * where it was and when the source last listed it. import-registry.ts reads and writes them batch
 * by batch through these.
 */

export interface HeldRow {
  record_id: string;
  business_id: string;
}

export interface KnownRecord {
  record_id: string;
  business_id: string;
  slug: string;
  removed: boolean;
  /** The record this one is a second id of (registry_records.same_as), else null. */
  same_as: string | null;
}

/** A record that continues a held one takes over its row (and so its business) under the new id. */
export async function rekeyMovedRecords(tx: Db, source: string, records: readonly RegistryRecord[], moved: Map<string, string>): Promise<void> {
  const pairs = records.flatMap((record) => (moved.has(record.recordId) ? [{ new_id: record.recordId, old_id: moved.get(record.recordId)! }] : []));
  if (pairs.length === 0) return;
  await tx.execute(sql`
    update registry_records r set record_id = p.new_id
    from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as p(new_id text, old_id text)
    where r.source = ${source} and r.record_id = p.old_id`);
}

export async function knownRecords(tx: Db, source: string, recordIds: readonly string[]): Promise<Map<string, KnownRecord>> {
  if (recordIds.length === 0) return new Map();
  const rows = rowsOf<KnownRecord>(
    await tx.execute(sql`
      select r.record_id, r.business_id, b.slug, r.removed_at is not null as removed, r.same_as
      from registry_records r join businesses b on b.id = r.business_id
      where r.source = ${source} and r.record_id = any(${textList(recordIds)})`),
  );
  return new Map(rows.map((row) => [row.record_id, row]));
}

/** The records' rows, and their second ids' rows (at the record's place, naming it in same_as), pointing at their businesses. */
export async function upsertRecords(tx: Db, source: string, records: readonly RegistryRecord[], businessIds: Map<string, string>): Promise<void> {
  if (records.length === 0) return;
  const rows = records.flatMap((record) => {
    const row = {
      source,
      business_id: businessIds.get(record.recordId),
      name: record.facts.name,
      lat: record.facts.coordinates.lat,
      lng: record.facts.coordinates.lng,
      observed_at: record.observedAt.toISOString(),
      removed_at: null,
    };
    return [
      { ...row, record_id: record.recordId, same_as: null },
      ...(record.alsoRecordIds ?? []).map((id) => ({ ...row, record_id: id, same_as: record.recordId })),
    ];
  });
  await tx.execute(sql`
    insert into registry_records (source, record_id, business_id, name, lat, lng, observed_at, removed_at, same_as)
    select source, record_id, business_id, name, lat, lng, observed_at, removed_at, same_as from jsonb_populate_recordset(null::registry_records, ${JSON.stringify(rows)}::jsonb)
    on conflict (source, record_id) do update set business_id = excluded.business_id, name = excluded.name, lat = excluded.lat, lng = excluded.lng,
      observed_at = excluded.observed_at, removed_at = null, same_as = excluded.same_as
    where (registry_records.business_id, registry_records.name, registry_records.lat, registry_records.lng, registry_records.observed_at, registry_records.removed_at, registry_records.same_as)
      is distinct from (excluded.business_id, excluded.name, excluded.lat, excluded.lng, excluded.observed_at, null, excluded.same_as)`);
}

/**
 * Of these businesses, those no record of any source lists any more leave service
 * (removed_from_source): a business stays while one of its ids is listed. Returns how many left.
 */
export async function retireUnlisted(tx: Db, businessIds: readonly string[], at: Date): Promise<number> {
  if (businessIds.length === 0) return 0;
  const listed = new Set(
    rowsOf<{ business_id: string }>(
      await tx.execute(sql`select distinct business_id from registry_records where business_id = any(${uuidList([...businessIds])}) and removed_at is null`),
    ).map((row) => row.business_id),
  );
  const unlisted = [...new Set(businessIds)].filter((id) => !listed.has(id));
  await setInService(tx, unlisted, "removed_from_source", at);
  return unlisted.length;
}

/**
 * Records of this source in service inside the area that the file no longer lists, read page by
 * page so that only these are held: what the import's last step takes out of service.
 */
export async function unlistedInService(db: Db, source: string, area: BoundingBox | null, listed: RecordIdSet): Promise<HeldRow[]> {
  // The scanner sets it: the header's bounding box, else the extent of the data (registry-record.ts).
  if (!area) return [];
  const gone: HeldRow[] = [];
  let after = "";
  for (;;) {
    const rows = rowsOf<HeldRow>(
      await db.execute(sql`
        select record_id, business_id from registry_records
        where source = ${source} and removed_at is null and record_id > ${after}
          and lat between ${area.minLat} and ${area.maxLat} and lng between ${area.minLng} and ${area.maxLng}
        order by record_id limit ${PAGE_ROWS}`),
    );
    for (const row of rows) if (!listed.has(row.record_id)) gone.push(row);
    if (rows.length < PAGE_ROWS) return gone;
    after = rows[rows.length - 1]!.record_id;
  }
}

/** These records are gone from the source; their businesses leave service unless another of their ids is listed (retireUnlisted). */
export async function removeRecords(tx: Db, source: string, records: readonly HeldRow[], at: Date): Promise<number> {
  if (records.length === 0) return 0;
  const removed = rowsOf<{ business_id: string }>(
    await tx.execute(sql`
      update registry_records set removed_at = ${at.toISOString()}::timestamptz
      where source = ${source} and removed_at is null and record_id = any(${textList(records.map((row) => row.record_id))})
      returning business_id`),
  );
  return retireUnlisted(
    tx,
    removed.map((row) => row.business_id),
    at,
  );
}
