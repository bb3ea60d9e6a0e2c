import { createHash, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { businesses, CLAIM_PROPERTIES, CORRECTABLE_PROPERTIES, corrections, outboxEvents, type ClaimProperty, type Correction, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { canonicalJson, parseClaimValue } from "../claims/claim-values";
import { requireServableBySlug } from "../entities/business-lookup";
import { isUuid } from "../shared/ids";
import { cleanOwnerText, hasVisibleText, OWNER_TEXT_LIMITS } from "../shared/owner-text";

/*
 * Corrections: anyone (an agent, a person) says a fact of a listing is wrong and proposes a value.
 * A correction never changes a fact by itself: it is a pending proposal until an admin accepts it
 * (correction-decisions.ts: a superseding admin-verified claim through the one write path) or
 * rejects it. Its status is public; who submitted it never is.
 */

/** Evidence is owner text: cleaned (hidden characters removed) and cut at this many characters, never refused for length. */
export const CORRECTION_EVIDENCE_LIMIT = OWNER_TEXT_LIMITS.long;

/** An accepted correction's claim names it: source "correction:<id>". */
export function correctionSource(correctionId: string): string {
  return `correction:${correctionId}`;
}

/** A caller's clock may run a little ahead; a fact seen further in the future is a mistake. */
const OBSERVED_AT_SKEW_MS = 5 * 60_000;

export interface SubmitCorrectionParams {
  slug: string;
  property?: string;
  value?: unknown;
  operatingStatus?: unknown;
  evidence: string;
  observedAt?: string;
  dryRun?: boolean;
  /** "key:<id>" or "ip:<bucket>": who is counted as one independent caller. Never shown publicly. */
  submitter: string;
  at?: Date;
}

/** The property and the cleaned value a body proposes, validated exactly like an owner edit (claim-values.ts). */
export function proposedFact(params: Pick<SubmitCorrectionParams, "property" | "value" | "operatingStatus">): { property: ClaimProperty; value: unknown } {
  const { property, value, operatingStatus } = params;
  if (operatingStatus !== undefined) {
    if (property !== undefined && property !== "operatingStatus") {
      throw new DomainError("INVALID_INPUT", "Invalid parameter property: send either {property, value} or {operatingStatus}, not both", { property });
    }
    return { property: "operatingStatus", value: parseClaimValue("operatingStatus", operatingStatus) };
  }
  if (property === undefined) throw new DomainError("INVALID_INPUT", "Invalid body: send {property, value} or {operatingStatus}");
  if (!(CORRECTABLE_PROPERTIES as readonly string[]).includes(property)) {
    const known = (CLAIM_PROPERTIES as readonly string[]).includes(property);
    throw new DomainError(
      "INVALID_INPUT",
      `${known ? "Invalid property" : "Unknown property"} "${property}": a correction proposes one of ${CORRECTABLE_PROPERTIES.join(", ")}`,
      { property },
    );
  }
  if (value === undefined) throw new DomainError("INVALID_INPUT", `Invalid ${property}: value is required (null removes the fact)`, { property });
  return { property: property as ClaimProperty, value: parseClaimValue(property as ClaimProperty, value) };
}

function proposalKeyOf(businessId: string, property: string, value: unknown): string {
  return createHash("sha256")
    .update(`${businessId}|${property}|${canonicalJson(value)}`)
    .digest("hex");
}

/** How many independent callers (distinct submitters) made each proposal while in this status. */
async function supportersOf(db: Db, rows: readonly Pick<Correction, "proposalKey" | "status">[]): Promise<Map<string, number>> {
  const keys = [...new Set(rows.map((row) => row.proposalKey))];
  if (keys.length === 0) return new Map();
  const counts = await db
    .select({ proposalKey: corrections.proposalKey, status: corrections.status, supporters: sql<number>`count(distinct ${corrections.submitter})::int` })
    .from(corrections)
    .where(inArray(corrections.proposalKey, keys))
    .groupBy(corrections.proposalKey, corrections.status);
  return new Map(counts.map((row) => [`${row.proposalKey}|${row.status}`, row.supporters]));
}

/** What anyone may read of a correction: never its submitter (nor the evidence, which may name them). */
function publicView(row: Correction, slug: string, supporters: Map<string, number>) {
  return {
    correctionId: row.id,
    status: row.status,
    slug,
    property: row.property,
    value: row.value,
    supporters: supporters.get(`${row.proposalKey}|${row.status}`) ?? 1,
    claimId: row.claimId,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** The view an admin or the business's owner reads: the public one plus the evidence and when the caller saw it. */
export function reviewView(row: Correction, slug: string, supporters: Map<string, number>) {
  return { ...publicView(row, slug, supporters), evidence: row.evidence, observedAt: row.observedAt?.toISOString() ?? null };
}

/**
 * Records a proposal (or, dryRun, only validates it). The same caller proposing the same value again
 * gets its pending correction back, so a retry neither adds weight nor a second event; another
 * caller's identical proposal adds a row and so a supporter. The owner hears of each new one
 * (correction.created, in the same transaction).
 */
export async function submitCorrection(db: Db, params: SubmitCorrectionParams) {
  const { slug, submitter, at = new Date() } = params;
  const business = await requireServableBySlug(db, slug);
  const { property, value } = proposedFact(params);
  const evidence = cleanOwnerText(params.evidence, CORRECTION_EVIDENCE_LIMIT);
  if (!hasVisibleText(evidence)) throw new DomainError("INVALID_INPUT", "Invalid parameter evidence: say what shows the fact is wrong (a text or a URL)");
  const observedAt = params.observedAt === undefined ? null : new Date(params.observedAt);
  if (observedAt && observedAt.getTime() > at.getTime() + OBSERVED_AT_SKEW_MS) {
    throw new DomainError("INVALID_INPUT", "Invalid parameter observedAt: it is in the future");
  }
  const proposalKey = proposalKeyOf(business.id, property, value);
  if (params.dryRun) {
    const nothing = { correctionId: null, supporters: 0, claimId: null, createdAt: null, decidedAt: null };
    return { ...nothing, status: "pending" as const, dryRun: true, slug: business.slug, property, value };
  }
  return db.transaction(async (tx) => {
    // Serialises one proposal's submissions, so a retry racing itself finds its first row.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${proposalKey}, 0))`);
    const [existing] = await tx
      .select()
      .from(corrections)
      .where(and(eq(corrections.proposalKey, proposalKey), eq(corrections.submitter, submitter), eq(corrections.status, "pending")))
      .limit(1);
    let row = existing;
    if (!row) {
      [row] = await tx
        .insert(corrections)
        .values({ id: randomUUID(), businessId: business.id, property, value, proposalKey, evidence, observedAt, submitter, createdAt: at })
        .returning();
      await tx.insert(outboxEvents).values({
        eventType: "correction.created",
        businessId: business.id,
        payload: { event: "correction.created", correctionId: row!.id, property, businessId: business.id, occurredAt: at.toISOString() },
        createdAt: at,
      });
    }
    const view = publicView(row!, business.slug, await supportersOf(tx, [row!]));
    return { ...view, dryRun: false };
  });
}

/** GET /api/v2/corrections/{id}: anyone holding the id may poll it; the submitter is never shown. */
export async function getCorrectionStatus(db: Db, correctionId: string) {
  const notFound = () => new DomainError("NOT_FOUND", `No correction with id "${correctionId}"`);
  if (!isUuid(correctionId)) throw notFound();
  const [found] = await correctionsWithSlug(db).where(eq(corrections.id, correctionId.toLowerCase())).limit(1);
  if (!found) throw notFound();
  return publicView(found.correction, found.slug, await supportersOf(db, [found.correction]));
}

/** Corrections joined with their business's current slug. */
export function correctionsWithSlug(db: Db) {
  return db.select({ correction: corrections, slug: businesses.slug }).from(corrections).innerJoin(businesses, eq(businesses.id, corrections.businessId));
}

/** The most an owner's or an admin's list returns in one answer. */
export const MAX_CORRECTIONS_LISTED = 200;

/** GET /api/v2/owner/corrections: the proposals on the key's own listing, newest first. */
export async function listOwnCorrections(db: Db, params: { businessId: string; limit?: number }) {
  const rows = await correctionsWithSlug(db)
    .where(eq(corrections.businessId, params.businessId))
    .orderBy(desc(corrections.createdAt), desc(corrections.id))
    .limit(Math.min(params.limit ?? 50, MAX_CORRECTIONS_LISTED));
  const supporters = await supportersOf(
    db,
    rows.map((row) => row.correction),
  );
  return { corrections: rows.map((row) => reviewView(row.correction, row.slug, supporters)) };
}

export { supportersOf };
