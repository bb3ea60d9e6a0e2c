import type { ClaimProperty, Db } from "@directory/db";
import { insertMissingCategories } from "@directory/db/seed";
import { DomainError } from "../../errors";
import { createBusinesses } from "../claims/business-creation";
import { writeClaims, type NewClaim } from "../claims/claim-writes";
import { setInService } from "../claims/lifecycle";
import { recordEntityUpdates, type EntityUpdate } from "../claims/outbox";
import { forEachConcurrently, relaxedCommit, withRetryOnRace } from "./import-batches";
import { ensureCities } from "./registry-cities";
import { SOURCE_PATTERN, type RegistryRecord, type RegistryScan } from "./registry-record";
import { matchMovedRecords } from "./registry-matching";
import { knownRecords, plannedRemovals, rekeyMovedRecords, removeMissing, upsertRecords } from "./registry-record-rows";

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

/**
 * The share of a source's records in service inside a file's area that one import may take out
 * of service unasked: a file cut wrong, or one whose header claims far more than it holds, would
 * otherwise empty the directory of that source.
 */
export const MAX_REMOVED_SHARE = 0.2;

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
  /** Lets the import remove more than MAX_REMOVED_SHARE of the source's records in the area (`--allow-removals`). */
  allowRemovals?: boolean;
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

class DryRunRollback extends Error {}

/**
 * Applies a registry scan as a diff. Each batch of records is one transaction: new records add
 * businesses, known ones write their facts through the claim write path (a fact equal to what the
 * source said last is no change), records back after a removal reactivate their business. Only
 * when every batch is in do records of the same source inside the scan's area that the scan no
 * longer has take their businesses out of service (removed_from_source), so a run that fails
 * half-way removes nothing, and running it again (a diff) finishes it. An import that would remove
 * more than MAX_REMOVED_SHARE of them is refused before anything is written, unless allowRemovals.
 * Each business that changes gets exactly one entity.updated.
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
  const seen = new Set<string>();
  for (const { recordId } of scan.records) {
    if (seen.has(recordId))
      throw new DomainError("INVALID_INPUT", `Record ${recordId} appears twice in the records of source "${source}": one record is one business`);
    seen.add(recordId);
  }
  // A source cannot have seen a business after the import that writes it down.
  const records = scan.records.map((record) => (record.observedAt > at ? { ...record, observedAt: at } : record));
  const batches: RegistryRecord[][] = [];
  for (let start = 0; start < records.length; start += batchSize) batches.push(records.slice(start, start + batchSize));
  let done = 0;
  const run = async (inTransaction: <T>(work: (tx: Db) => Promise<T>) => Promise<T>, concurrency: number) => {
    const context = await inTransaction(async (tx): Promise<BatchContext> => {
      const moved = await matchMovedRecords(tx, scan, source);
      // Before any batch: a refused import has written nothing.
      const planned = await plannedRemovals(tx, scan, source, new Set(moved.values()));
      if (!options.allowRemovals && planned.removed > MAX_REMOVED_SHARE * planned.inService) throw removalsRefused(source, planned);
      await insertMissingCategories(tx);
      // Every city first, in one transaction: batches running side by side then never wait on
      // each other's new cities.
      const citySlugs = await ensureCities(
        tx,
        records.map((record) => record.city),
      );
      return { source, at, citySlugs, moved };
    });
    await forEachConcurrently(batches, concurrency, async (batch) => {
      const counts = await withRetryOnRace(() => inTransaction((tx) => applyBatch(tx, batch, context)));
      for (const key of COUNTED) summary[key] += counts[key];
      done += batch.length;
      options.onProgress?.(done, records.length);
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

function removalsRefused(source: string, planned: { removed: number; inService: number }): DomainError {
  return new DomainError(
    "CONFLICT",
    `This import would remove ${planned.removed} of the ${planned.inService} records source "${source}" has in service inside the file's area, ` +
      `more than ${MAX_REMOVED_SHARE * 100}%: is the file the whole area its header claims? Run it again with --allow-removals if these removals are meant`,
    { removed: planned.removed, inService: planned.inService },
  );
}

const COUNTED = ["added", "changed", "unchanged", "reactivated"] as const;
type BatchCounts = Record<(typeof COUNTED)[number], number>;

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
