import { sql } from "drizzle-orm";
import { rowsOf, type ClaimProperty, type Db } from "@directory/db";
import { insertMissingCategories } from "@directory/db/seed";
import { createBusinesses } from "../claims/business-creation";
import { writeClaims, type NewClaim } from "../claims/claim-writes";
import { setInService } from "../claims/lifecycle";
import { recordEntityUpdates, type EntityUpdate } from "../claims/outbox";
import { isDeadlock, isUniqueViolation } from "../shared/db-errors";
import { textList } from "../shared/sql-lists";
import { ensureCities } from "./registry-cities";
import { SOURCE_PATTERN, type RegistryRecord, type RegistryScan } from "./registry-record";
import { matchMovedRecords } from "./registry-matching";

/** The properties a registry speaks for: one it listed before and lists no more is retracted (null). */
const REGISTRY_PROPERTIES = [
  "name",
  "category",
  "city",
  "coordinates",
  "address",
  "postalCode",
  "phone",
  "website",
  "email",
  "description",
  "openingHours",
  "openingHoursText",
] as const satisfies readonly ClaimProperty[];

const ABSENT: Partial<Record<ClaimProperty, unknown>> = { openingHours: [] };

export const DEFAULT_BATCH_SIZE = 500;

export interface ImportOptions {
  /** The claims' source and the records' namespace, e.g. "openstreetmap". */
  source: string;
  /** Runs every batch in one transaction that is rolled back: the exact summary, nothing written. */
  dryRun?: boolean;
  batchSize?: number;
  at?: Date;
  /**
   * Batches in flight at once, each in its own transaction (PostgreSQL: one connection each; the
   * embedded database runs them one after another whatever this says). 1 by default.
   */
  concurrency?: number;
  /** Called after each committed batch with the records done so far. */
  onProgress?: (done: number, total: number) => void;
}

export interface ImportSummary {
  source: string;
  dryRun: boolean;
  elements: number;
  records: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  reactivated: number;
  skipped: Record<string, number>;
  unmappedTags: Record<string, number>;
  unparsedOpeningHours: Record<string, number>;
}

interface KnownRecord {
  record_id: string;
  business_id: string;
  slug: string;
  removed: boolean;
}

class DryRunRollback extends Error {}

/**
 * Applies a registry scan as a diff. Each batch of records is one transaction: new records add
 * businesses, known ones write their facts through the claim write path (a fact equal to what the
 * source said last is no change), records back after a removal reactivate their business. Only
 * when every batch is in do records of the same source inside the scan's area that the scan no
 * longer has take their businesses out of service (removed_from_source), so a run that fails
 * half-way removes nothing, and running it again (a diff) finishes it. Each business that changes
 * gets exactly one entity.updated.
 */
export async function importRegistry(db: Db, scan: RegistryScan, options: ImportOptions): Promise<ImportSummary> {
  const { source, dryRun = false, batchSize = DEFAULT_BATCH_SIZE, at = new Date() } = options;
  if (!SOURCE_PATTERN.test(source)) throw new Error(`Invalid source "${source}": lower-case letters, digits, dots and dashes, at most 40 characters`);
  const summary: ImportSummary = {
    source,
    dryRun,
    elements: scan.elements,
    records: scan.records.length,
    ...{ added: 0, changed: 0, unchanged: 0, removed: 0, reactivated: 0 },
    ...{ skipped: scan.skipped, unmappedTags: scan.unmappedTags, unparsedOpeningHours: scan.unparsedOpeningHours },
  };
  const batches: RegistryRecord[][] = [];
  for (let start = 0; start < scan.records.length; start += batchSize) batches.push(scan.records.slice(start, start + batchSize));
  let done = 0;
  const run = async (inTransaction: <T>(work: (tx: Db) => Promise<T>) => Promise<T>, concurrency: number) => {
    const context = await inTransaction(async (tx): Promise<BatchContext> => {
      await insertMissingCategories(tx);
      // Every city first, in one transaction: batches running side by side then never wait on
      // each other's new cities.
      const citySlugs = await ensureCities(
        tx,
        scan.records.map((record) => record.city),
      );
      return { source, at, citySlugs, moved: await matchMovedRecords(tx, scan, source) };
    });
    await forEachConcurrently(batches, concurrency, async (batch) => {
      const counts = await withRetryOnRace(() => inTransaction((tx) => applyBatch(tx, batch, context)));
      for (const key of COUNTED) summary[key] += counts[key];
      done += batch.length;
      options.onProgress?.(done, scan.records.length);
    });
    summary.removed = await inTransaction((tx) => removeMissing(tx, scan, source, at));
  };
  if (!dryRun) {
    await run((work) => db.transaction((tx) => relaxedCommit(tx).then(() => work(tx))), options.concurrency ?? 1);
    return summary;
  }
  try {
    await db.transaction(async (tx) => {
      await run((work) => work(tx), 1);
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return summary;
}

const COUNTED = ["added", "changed", "unchanged", "reactivated"] as const;
type BatchCounts = Record<(typeof COUNTED)[number], number>;

/**
 * An import's commits need not wait for the disk: a crash loses at most the last batches, which a
 * re-run (a diff) writes again, and the database stays consistent either way.
 */
async function relaxedCommit(tx: Db): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/** Runs work over items with at most `concurrency` at once, in order of start; the first failure stops the rest. */
async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}

/**
 * Two batches side by side can race for one free slug ("coop-vaduz" in both) or deadlock on each
 * other's rows; the loser's transaction rolled back whole, so it is simply run again.
 */
async function withRetryOnRace<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !(isUniqueViolation(error) || isDeadlock(error))) throw error;
    }
  }
}

function claimsOf(record: RegistryRecord, citySlug: string, source: string, known: boolean): NewClaim[] {
  const facts: Partial<Record<ClaimProperty, unknown>> = { ...record.facts, city: citySlug };
  const provenance = { source, confidence: record.confidence, verification: "registry" as const, observedAt: record.observedAt, recordId: record.recordId };
  return REGISTRY_PROPERTIES.flatMap((property): NewClaim[] => {
    if (facts[property] !== undefined) return [{ property, value: facts[property], ...provenance }];
    // A fact the source dropped: retracted, but only where this source had stated it.
    return known ? [{ property, value: ABSENT[property] ?? null, ...provenance, ifSourceStated: true }] : [];
  });
}

interface BatchContext {
  source: string;
  at: Date;
  /** GeoNames id -> city slug, for every city of the scan (added before the batches). */
  citySlugs: Map<number, string>;
  /** New record id -> the held record it continues (registry-matching.ts). */
  moved: Map<string, string>;
}

async function applyBatch(tx: Db, records: readonly RegistryRecord[], context: BatchContext): Promise<BatchCounts> {
  const { source, at, citySlugs } = context;
  const counts: BatchCounts = { added: 0, changed: 0, unchanged: 0, reactivated: 0 };
  await rekeyMovedRecords(tx, source, records, context.moved);
  const known = await knownRecords(
    tx,
    source,
    records.map((record) => record.recordId),
  );
  const fresh = records.filter((record) => !known.has(record.recordId));
  const existing = records.filter((record) => known.has(record.recordId));

  const created = await createBusinesses(
    tx,
    fresh.map((record) => ({ label: `${source} ${record.recordId}`, claims: claimsOf(record, citySlugs.get(record.city.id)!, source, false) })),
    at,
  );
  counts.added = created.length;

  const written = await writeClaims(
    tx,
    existing.map((record) => {
      const row = known.get(record.recordId)!;
      return {
        business: { id: row.business_id, slug: row.slug },
        label: `${source} ${record.recordId}`,
        claims: claimsOf(record, citySlugs.get(record.city.id)!, source, true),
      };
    }),
    at,
    { events: false },
  );
  const returning = existing.filter((record) => known.get(record.recordId)!.removed).map((record) => known.get(record.recordId)!.business_id);
  const reactivated = new Set(await setInService(tx, returning, null, at, { onlyReason: "removed_from_source", events: false }));

  const updates: EntityUpdate[] = [];
  for (const record of existing) {
    const row = known.get(record.recordId)!;
    const recorded = written.get(row.business_id)?.recorded ?? [];
    if (reactivated.has(row.business_id)) {
      counts.reactivated += 1;
      updates.push({ businessId: row.business_id, slug: row.slug, change: "status", properties: recorded });
    } else if (recorded.length > 0) {
      counts.changed += 1;
      updates.push({ businessId: row.business_id, slug: row.slug, change: "claims", properties: recorded });
    } else {
      counts.unchanged += 1;
    }
  }
  await recordEntityUpdates(tx, updates, at);
  await upsertRecords(
    tx,
    source,
    records,
    new Map([
      ...fresh.map((record, index) => [record.recordId, created[index]!.id] as const),
      ...existing.map((record) => [record.recordId, known.get(record.recordId)!.business_id] as const),
    ]),
  );
  return counts;
}

/** A record that continues a held one takes over its row (and so its business) under the new id. */
async function rekeyMovedRecords(tx: Db, source: string, records: readonly RegistryRecord[], moved: Map<string, string>): Promise<void> {
  const pairs = records.flatMap((record) => (moved.has(record.recordId) ? [{ new_id: record.recordId, old_id: moved.get(record.recordId)! }] : []));
  if (pairs.length === 0) return;
  await tx.execute(sql`
    update registry_records r set record_id = p.new_id
    from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as p(new_id text, old_id text)
    where r.source = ${source} and r.record_id = p.old_id`);
}

async function knownRecords(tx: Db, source: string, recordIds: readonly string[]): Promise<Map<string, KnownRecord>> {
  if (recordIds.length === 0) return new Map();
  const rows = rowsOf<KnownRecord>(
    await tx.execute(sql`
      select r.record_id, r.business_id, b.slug, r.removed_at is not null as removed
      from registry_records r join businesses b on b.id = r.business_id
      where r.source = ${source} and r.record_id = any(${textList(recordIds)})`),
  );
  return new Map(rows.map((row) => [row.record_id, row]));
}

async function upsertRecords(tx: Db, source: string, records: readonly RegistryRecord[], businessIds: Map<string, string>): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((record) => ({
    source,
    record_id: record.recordId,
    business_id: businessIds.get(record.recordId),
    name: record.facts.name,
    lat: record.facts.coordinates.lat,
    lng: record.facts.coordinates.lng,
    observed_at: record.observedAt.toISOString(),
    removed_at: null,
  }));
  await tx.execute(sql`
    insert into registry_records (source, record_id, business_id, name, lat, lng, observed_at, removed_at)
    select source, record_id, business_id, name, lat, lng, observed_at, removed_at from jsonb_populate_recordset(null::registry_records, ${JSON.stringify(rows)}::jsonb)
    on conflict (source, record_id) do update set name = excluded.name, lat = excluded.lat, lng = excluded.lng, observed_at = excluded.observed_at, removed_at = null
    where (registry_records.name, registry_records.lat, registry_records.lng, registry_records.observed_at, registry_records.removed_at)
      is distinct from (excluded.name, excluded.lat, excluded.lng, excluded.observed_at, null)`);
}

/** Records of this source inside the scan's area that it no longer has: their businesses leave service. */
async function removeMissing(tx: Db, scan: RegistryScan, source: string, at: Date): Promise<number> {
  // The scanner sets it: the header's bounding box, else the extent of the data (registry-record.ts).
  const area = scan.area;
  if (!area) return 0;
  const present = new Set(scan.records.map((record) => record.recordId));
  const inArea = rowsOf<{ record_id: string; business_id: string }>(
    await tx.execute(sql`
      select record_id, business_id from registry_records
      where source = ${source} and removed_at is null
        and lat between ${area.minLat} and ${area.maxLat} and lng between ${area.minLng} and ${area.maxLng}
      for update`),
  );
  const gone = inArea.filter((row) => !present.has(row.record_id));
  if (gone.length === 0) return 0;
  await tx.execute(sql`
    update registry_records set removed_at = ${at.toISOString()}::timestamptz
    where source = ${source} and record_id = any(${textList(gone.map((row) => row.record_id))})`);
  await setInService(
    tx,
    gone.map((row) => row.business_id),
    "removed_from_source",
    at,
  );
  return gone.length;
}
