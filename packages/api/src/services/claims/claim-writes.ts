import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { CLAIM_PROPERTIES, rowsOf, type ClaimProperty, type ClaimVerification, type Db, type HeldClaim } from "@directory/db";
import { DomainError } from "../../errors";
import { uuidList } from "../shared/sql-lists";
import { parseClaimValue, sameClaimValue } from "./claim-values";
import { recordEntityUpdates, type EntityUpdate } from "./outbox";
import { businessRowsForUpdate, projectClaims, resolveReferences, withFreshness, writeProjections, type ProjectedBusiness } from "./projection";

export { CLAIM_PROPERTIES, type ClaimProperty };

/** A fact someone states about a business, with its provenance. */
export interface NewClaim {
  property: ClaimProperty;
  value: unknown;
  /** Who said it: "owner:<key prefix>", "admin:verify", "openstreetmap", ... */
  source: string;
  /** 0..1 */
  confidence: number;
  verification: ClaimVerification;
  /** When the source saw it; the write time by default. */
  observedAt?: Date;
  /** The record in the source, e.g. "node/123". */
  recordId?: string | null;
  /**
   * Only when this source stated the property before: how a registry says a fact it used to
   * list is gone (a null value) without adding a claim for every property it never had.
   */
  ifSourceStated?: boolean;
}

export interface BusinessClaims {
  business: { id: string; slug: string };
  claims: NewClaim[];
  /** Names the business in errors ("node/123", a slug); its slug by default. */
  label?: string;
}

/** Per business: the properties whose claims were recorded, and those whose current value changed. */
export interface ClaimWriteResult {
  recorded: ClaimProperty[];
  changed: ClaimProperty[];
}

/** A row of the claims table as the write path inserts it. */
export interface ClaimRecord {
  id: string;
  business_id: string;
  property: ClaimProperty;
  value: unknown;
  source: string;
  confidence: number;
  verification: ClaimVerification;
  observed_at: string;
  record_id: string | null;
  recorded_at: string;
  superseded_at: string | null;
  superseded_by: string | null;
}

interface StoredClaim {
  id: string;
  business_id: string;
  property: string;
  value: unknown;
  source: string;
  verification: ClaimVerification;
  observed_at: string | Date;
  current: boolean;
}

/**
 * A registry never overrides what a person stated: an owner's or an admin's claim stays current
 * against a later import, which is kept beside it as history. Every other claim supersedes.
 */
function supersedes(incoming: ClaimVerification, current: ClaimVerification): boolean {
  return incoming !== "registry" || current === "registry";
}

const VERIFICATION_RANK: Record<ClaimVerification, number> = { registry: 0, self_reported: 1, admin_verified: 2 };

/**
 * A claim changes nothing when its source already said the same thing, and saying it again would
 * not make it current where it is not: the latest claim of the source is current, or the new one
 * would not supersede (a registry against a person), or the current claim already holds this value
 * at least as well verified (an owner repeating a value an admin verified). An admin verifying a
 * value an owner restated after an earlier verification is a change.
 */
function isNoChange(claim: NewClaim, latest: StoredClaim | undefined, current: StoredClaim | undefined): boolean {
  if (!latest) return claim.ifSourceStated === true;
  if (latest.verification !== claim.verification || !sameClaimValue(latest.value, claim.value)) return false;
  if (!current || latest.current) return true;
  if (!supersedes(claim.verification, current.verification)) return true;
  return sameClaimValue(current.value, claim.value) && VERIFICATION_RANK[current.verification] >= VERIFICATION_RANK[claim.verification];
}

/** Validates and cleans every value of a batch before anything is written; a bad one fails the batch with its name. */
export function validateClaims<T extends { claims: NewClaim[]; label?: string; business?: { slug: string } }>(writes: readonly T[]): T[] {
  return writes.map((write) => ({
    ...write,
    claims: write.claims.map((claim, index) => {
      if (write.claims.findIndex((other) => other.property === claim.property) !== index) {
        throw new DomainError("INVALID_INPUT", `Invalid ${claim.property}: given twice for ${write.label ?? write.business?.slug ?? "one business"}`, {
          property: claim.property,
        });
      }
      if (!(CLAIM_PROPERTIES as readonly string[]).includes(claim.property)) {
        throw new DomainError("INVALID_INPUT", `Unknown property "${String(claim.property)}": one of ${CLAIM_PROPERTIES.join(", ")}`, {
          property: String(claim.property),
        });
      }
      if (!(claim.confidence >= 0 && claim.confidence <= 1)) throw new Error(`confidence ${claim.confidence} is outside 0..1`);
      const { ifSourceStated, ...rest } = claim;
      return {
        ...rest,
        ...(ifSourceStated ? { ifSourceStated } : {}),
        value: parseClaimValue(claim.property, claim.value, write.label ?? write.business?.slug),
      };
    }),
  }));
}

/** A new claim's row; superseded on arrival when `supersededBy` is given. */
export function claimRecord(businessId: string, claim: NewClaim, at: Date, supersededBy: string | null = null): ClaimRecord {
  return {
    id: randomUUID(),
    business_id: businessId,
    property: claim.property,
    value: claim.value,
    source: claim.source,
    confidence: claim.confidence,
    verification: claim.verification,
    observed_at: (claim.observedAt ?? at).toISOString(),
    record_id: claim.recordId ?? null,
    recorded_at: at.toISOString(),
    superseded_at: supersededBy ? at.toISOString() : null,
    superseded_by: supersededBy,
  };
}

/**
 * Inserts claim rows in one statement, whatever their number (one JSON parameter, not one per
 * column). A null value ("no phone any more") is JSON null: the recordset reads it as SQL NULL.
 */
export async function insertClaimRecords(tx: Db, records: readonly ClaimRecord[]): Promise<void> {
  if (records.length === 0) return;
  await tx.execute(sql`
    insert into claims (id, business_id, property, value, source, confidence, verification, observed_at, record_id, recorded_at, superseded_at, superseded_by)
    select id, business_id, property, coalesce(value, 'null'::jsonb), source, confidence, verification, observed_at, record_id, recorded_at, superseded_at, superseded_by
    from jsonb_populate_recordset(null::claims, ${JSON.stringify(records)}::jsonb)`);
}

/** The current claim and, per source, the latest claim of each property the batch writes. */
async function storedClaims(tx: Db, businessIds: string[]): Promise<StoredClaim[]> {
  const result = await tx.execute(sql`
    select distinct on (business_id, property, source) id, business_id, property, value, source, verification, observed_at, superseded_at is null as current
    from claims where business_id = any(${uuidList(businessIds)})
    order by business_id, property, source, recorded_at desc, (superseded_at is null) desc`);
  return rowsOf<StoredClaim>(result);
}

/**
 * The one write path for facts about existing businesses, in the caller's transaction, set-based
 * so an import of thousands costs a handful of statements per batch:
 * 1. every value is validated and cleaned (a bad one fails the whole batch, naming it);
 * 2. the businesses are locked in id order, so concurrent writers (an owner edit and an import)
 *    queue instead of both superseding the same claim;
 * 3. a claim its source already made is no change (isNoChange says exactly when); otherwise it
 *    supersedes the current claim, or, from a registry against a person's claim, is kept as
 *    history (supersedes());
 * 4. the listing columns are re-projected from the new current claims (the search row follows
 *    through its trigger), and one entity.updated event is written per business that changed.
 */
export async function writeClaims(
  tx: Db,
  writes: readonly BusinessClaims[],
  at: Date = new Date(),
  options: { /** false: the caller writes the events (one per business with its other changes). */ events?: boolean } = {},
): Promise<Map<string, ClaimWriteResult>> {
  const valid = validateClaims(writes);
  const results = new Map<string, ClaimWriteResult>();
  if (valid.length === 0) return results;
  const rows = await businessRowsForUpdate(
    tx,
    valid.map((write) => write.business.id),
  );
  const stored = await storedClaims(
    tx,
    valid.map((write) => write.business.id),
  );
  const latestBySource = new Map(stored.map((claim) => [`${claim.business_id}|${claim.property}|${claim.source}`, claim]));
  const currentByProperty = new Map(stored.filter((claim) => claim.current).map((claim) => [`${claim.business_id}|${claim.property}`, claim]));

  const inserts: ClaimRecord[] = [];
  const superseded: { oldId: string; newId: string }[] = [];
  const projections: ProjectedBusiness[] = [];
  const updates: EntityUpdate[] = [];
  for (const write of valid) {
    const businessId = write.business.id;
    const row = rows.get(businessId);
    if (!row) throw new DomainError("NOT_FOUND", `No business with id ${businessId}`);
    const result: ClaimWriteResult = { recorded: [], changed: [] };
    const changedValues: Partial<Record<ClaimProperty, unknown>> = {};
    for (const claim of write.claims) {
      const latest = latestBySource.get(`${businessId}|${claim.property}|${claim.source}`);
      const current = currentByProperty.get(`${businessId}|${claim.property}`);
      if (isNoChange(claim, latest, current)) continue;
      const becomesCurrent = !current || supersedes(claim.verification, current.verification);
      const record = claimRecord(businessId, claim, at, becomesCurrent ? null : current.id);
      inserts.push(record);
      const written: StoredClaim = { ...record, current: becomesCurrent };
      latestBySource.set(`${businessId}|${claim.property}|${claim.source}`, written);
      if (becomesCurrent) {
        if (current) superseded.push({ oldId: current.id, newId: record.id });
        currentByProperty.set(`${businessId}|${claim.property}`, written);
        changedValues[claim.property] = claim.value;
        result.changed.push(claim.property);
      }
      result.recorded.push(claim.property);
    }
    results.set(businessId, result);
    if (result.recorded.length === 0) continue;
    if (result.changed.length > 0) projections.push({ row, changes: changedValues });
    updates.push({ businessId, slug: row.slug, change: "claims", properties: result.recorded });
  }
  if (updates.length === 0) return results;

  const references = await resolveReferences(
    tx,
    projections.map((projection) => projection.changes),
  );
  // The partial unique index allows one current claim per property: the old ones step down first,
  // and superseded_by can only point at rows that exist, so it is filled in after the insert.
  await markSuperseded(tx, superseded, at);
  await insertClaimRecords(tx, inserts);
  await linkSuperseded(tx, superseded);
  const held = currentClaimsByBusiness(currentByProperty.values());
  await writeProjections(
    tx,
    projections.map((projection) => withFreshness(projectClaims(projection.row, projection.changes, references), held.get(projection.row.id) ?? [])),
    at,
  );
  if (options.events !== false) await recordEntityUpdates(tx, updates, at);
  return results;
}

/** Each business's current claims after the write, as its listing's freshness reads them. */
function currentClaimsByBusiness(current: Iterable<StoredClaim>): Map<string, HeldClaim[]> {
  const byBusiness = new Map<string, HeldClaim[]>();
  for (const claim of current) {
    const held = { property: claim.property, verification: claim.verification, observedAt: claim.observed_at };
    const list = byBusiness.get(claim.business_id);
    if (list) list.push(held);
    else byBusiness.set(claim.business_id, [held]);
  }
  return byBusiness;
}

async function markSuperseded(tx: Db, superseded: readonly { oldId: string }[], at: Date): Promise<void> {
  if (superseded.length === 0) return;
  await tx.execute(sql`update claims set superseded_at = ${at.toISOString()}::timestamptz where id = any(${uuidList(superseded.map((s) => s.oldId))})`);
}

async function linkSuperseded(tx: Db, superseded: readonly { oldId: string; newId: string }[]): Promise<void> {
  if (superseded.length === 0) return;
  await tx.execute(sql`
    update claims c set superseded_by = l.new_id
    from jsonb_to_recordset(${JSON.stringify(superseded.map((s) => ({ old_id: s.oldId, new_id: s.newId })))}::jsonb) as l(old_id uuid, new_id uuid)
    where c.id = l.old_id`);
}
