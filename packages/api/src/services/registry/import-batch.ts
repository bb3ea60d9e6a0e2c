import type { ClaimProperty, Db } from "@directory/db";
import { createBusinesses } from "../claims/business-creation";
import { writeClaims, type NewClaim } from "../claims/claim-writes";
import { setInService } from "../claims/lifecycle";
import { recordEntityUpdates, type EntityUpdate } from "../claims/outbox";
import type { RegistryRecord } from "./registry-record";
import { knownRecords, rekeyMovedRecords, upsertRecords } from "./registry-record-rows";

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
    if (facts[property] !== undefined) return [{ property, value: facts[property], ...provenance }];
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
}

export async function applyBatch(tx: Db, records: readonly RegistryRecord[], context: BatchContext): Promise<BatchCounts> {
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
