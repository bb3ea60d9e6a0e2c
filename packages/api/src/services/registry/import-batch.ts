import type { ClaimProperty, Db } from "@directory/db";
import { createBusinesses } from "../claims/business-creation";
import { writeClaims, type NewClaim } from "../claims/claim-writes";
import { setInService } from "../claims/lifecycle";
import { recordEntityUpdates, type EntityUpdate } from "../claims/outbox";
import type { RegistryRecord } from "./registry-record";
import type { RecordIdSet } from "./record-id-set";
import { knownRecords, rekeyMovedRecords, retireUnlisted, upsertRecords, type KnownRecord } from "./registry-record-rows";

/*
 * One batch of an import, in one transaction: new records add businesses, known ones write their
 * facts through the claim write path (a fact equal to what the source said last is no change),
 * records back after a removal reactivate their business, and each business that changes gets
 * exactly one entity.updated. A batch killed half-way is rolled back whole.
 */

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

export const COUNTED = ["added", "changed", "unchanged", "reactivated"] as const;
export type BatchCounts = Record<(typeof COUNTED)[number], number>;

function claimsOf(record: RegistryRecord, citySlug: string, source: string, known: boolean): NewClaim[] {
  const facts: Partial<Record<ClaimProperty, unknown>> = { ...record.facts, city: citySlug };
  const provenance = { source, confidence: record.confidence, verification: "registry" as const, observedAt: record.observedAt, recordId: record.recordId };
  return REGISTRY_PROPERTIES.flatMap((property): NewClaim[] => {
    // A fact the source gives on another record (the building around a shop) names that record.
    if (facts[property] !== undefined)
      return [{ property, value: facts[property], ...provenance, recordId: record.factRecordIds?.[property] ?? record.recordId }];
    // A fact the source dropped: retracted, but only where this source had stated it.
    return known ? [{ property, value: ABSENT[property] ?? null, ...provenance, ifSourceStated: true }] : [];
  });
}

export interface BatchContext {
  source: string;
  at: Date;
  /** GeoNames id -> city slug, for every city of the batch (added before it). */
  citySlugs: Map<number, string>;
  /** New record id -> the held record it continues (registry-matching.ts). */
  moved: Map<string, string>;
  /**
   * The records the feed lists: a record that was a second id of a business whose own record the
   * feed still lists gets a business of its own (the two are drawn apart again).
   */
  listed: RecordIdSet;
}

/**
 * The held row whose business a record writes to, or undefined for a new business: its own row,
 * unless it was the second id of a record the feed still lists; else the row of one of its
 * second ids that stood for a business of its own (a shop node added inside its mapped building
 * takes the building's listing over).
 */
function heldRowOf(record: RegistryRecord, known: Map<string, KnownRecord>, listed: RecordIdSet): KnownRecord | undefined {
  const own = known.get(record.recordId);
  if (own) return own.same_as !== null && listed.has(own.same_as) ? undefined : own;
  for (const id of record.alsoRecordIds ?? []) {
    const row = known.get(id);
    if (row?.same_as === null) return row;
  }
  return undefined;
}

export async function applyBatch(tx: Db, records: readonly RegistryRecord[], context: BatchContext): Promise<BatchCounts> {
  const { source, at, citySlugs } = context;
  const counts: BatchCounts = { added: 0, changed: 0, unchanged: 0, reactivated: 0 };
  await rekeyMovedRecords(tx, source, records, context.moved);
  const known = await knownRecords(
    tx,
    source,
    records.flatMap((record) => [record.recordId, ...(record.alsoRecordIds ?? [])]),
  );
  const held = new Map<string, KnownRecord>();
  for (const record of records) {
    const row = heldRowOf(record, known, context.listed);
    if (row) held.set(record.recordId, row);
  }
  const fresh = records.filter((record) => !held.has(record.recordId));
  const existing = records.filter((record) => held.has(record.recordId));

  const created = await createBusinesses(
    tx,
    fresh.map((record) => ({ label: `${source} ${record.recordId}`, claims: claimsOf(record, citySlugs.get(record.city.id)!, source, false) })),
    at,
  );
  counts.added = created.length;

  const written = await writeClaims(
    tx,
    existing.map((record) => {
      const row = held.get(record.recordId)!;
      return {
        business: { id: row.business_id, slug: row.slug },
        label: `${source} ${record.recordId}`,
        claims: claimsOf(record, citySlugs.get(record.city.id)!, source, true),
      };
    }),
    at,
    { events: false },
  );
  const returning = existing.filter((record) => held.get(record.recordId)!.removed).map((record) => held.get(record.recordId)!.business_id);
  const reactivated = new Set(await setInService(tx, returning, null, at, { onlyReason: "removed_from_source", events: false }));

  const updates: EntityUpdate[] = [];
  for (const record of existing) {
    const row = held.get(record.recordId)!;
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
  const businessIds = new Map([
    ...fresh.map((record, index) => [record.recordId, created[index]!.id] as const),
    ...existing.map((record) => [record.recordId, held.get(record.recordId)!.business_id] as const),
  ]);
  await upsertRecords(tx, source, records, businessIds);
  // A second id that stood for a business of its own (drawn apart before): that listing was this one twice.
  const merged = records.flatMap((record) =>
    (record.alsoRecordIds ?? []).flatMap((id) => {
      const row = known.get(id);
      return row && row.business_id !== businessIds.get(record.recordId) ? [row.business_id] : [];
    }),
  );
  await retireUnlisted(tx, merged, at);
  return counts;
}
