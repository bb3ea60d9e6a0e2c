import { and, asc, eq, ne, sql } from "drizzle-orm";
import { claims, corrections, type ClaimProperty, type CorrectionStatus, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { writeClaims } from "../claims/claim-writes";
import { lockBusiness } from "../claims/lifecycle";
import { isUuid } from "../shared/ids";
import { correctionSource, correctionsWithSlug, MAX_CORRECTIONS_LISTED, reviewView, supportersOf } from "./corrections";

/*
 * What only an admin decides about a correction: accept it (its value becomes a superseding
 * admin-verified claim through the one claim write path, whose source names the correction) or
 * reject it. Every row of the same proposal is decided with it; on acceptance, the other pending
 * proposals for the same property are superseded.
 */

/**
 * A decided correction forgets who sent it: the row's own id takes the submitter's place, so each
 * row still counts as one supporter of its proposal, and nothing links two decisions to one caller.
 */
const FORGET_SUBMITTER = { submitter: sql<string>`'decided:' || ${corrections.id}` };

/** The admin's queue: corrections in a status (pending by default), the most supported first, then the oldest. */
export async function listCorrections(db: Db, params: { status?: CorrectionStatus; limit?: number }) {
  const status = params.status ?? "pending";
  const rows = await correctionsWithSlug(db)
    .where(eq(corrections.status, status))
    .orderBy(
      sql`(select count(distinct s.submitter) from corrections s where s.proposal_key = ${corrections.proposalKey} and s.status = ${corrections.status}) desc`,
      asc(corrections.createdAt),
      asc(corrections.id),
    )
    .limit(Math.min(params.limit ?? 50, MAX_CORRECTIONS_LISTED));
  const supporters = await supportersOf(
    db,
    rows.map((row) => row.correction),
  );
  return { corrections: rows.map((row) => reviewView(row.correction, row.slug, supporters)) };
}

/** The correction under lock, still pending; 404 unknown, 409 decided. */
async function pendingCorrection(tx: Db, correctionId: string) {
  const [row] = await tx.select().from(corrections).where(eq(corrections.id, correctionId)).for("update");
  if (!row) throw new DomainError("NOT_FOUND", `No correction with id "${correctionId}"`);
  if (row.status !== "pending") throw new DomainError("CONFLICT", `The correction ${correctionId} is already ${row.status}`);
  return row;
}

async function decided(tx: Db, correctionId: string) {
  const [found] = await correctionsWithSlug(tx).where(eq(corrections.id, correctionId));
  return reviewView(found!.correction, found!.slug, await supportersOf(tx, [found!.correction]));
}

function requireUuid(correctionId: string): string {
  if (!isUuid(correctionId)) {
    throw new DomainError("NOT_FOUND", `No correction with id "${correctionId}"`);
  }
  return correctionId.toLowerCase();
}

/**
 * Accepts a correction: its value becomes the current claim (source correction:<id>, confidence 1,
 * admin_verified, observed when the caller said they saw it, else now), the listing and the search
 * row follow, and one entity.updated event tells the webhooks and the change feed.
 */
export async function acceptCorrection(db: Db, params: { correctionId: string; at?: Date }) {
  const { at = new Date() } = params;
  const correctionId = requireUuid(params.correctionId);
  return db.transaction(async (tx) => {
    const row = await pendingCorrection(tx, correctionId);
    const business = await lockBusiness(tx, row.businessId);
    const property = row.property as ClaimProperty;
    await writeClaims(
      tx,
      [
        {
          business: { id: business.id, slug: business.slug },
          claims: [
            {
              property,
              value: row.value,
              source: correctionSource(row.id),
              confidence: 1,
              verification: "admin_verified",
              observedAt: row.observedAt && row.observedAt < at ? row.observedAt : at,
            },
          ],
        },
      ],
      at,
    );
    const [claim] = await tx
      .select({ id: claims.id })
      .from(claims)
      .where(and(eq(claims.businessId, business.id), eq(claims.property, property), sql`${claims.supersededAt} is null`));
    const decision = { decidedAt: at, claimId: claim?.id ?? null };
    await tx
      .update(corrections)
      .set({ status: "accepted", ...decision, ...FORGET_SUBMITTER })
      .where(and(eq(corrections.proposalKey, row.proposalKey), eq(corrections.status, "pending")));
    await tx
      .update(corrections)
      .set({ status: "superseded", decidedAt: at, ...FORGET_SUBMITTER })
      .where(
        and(
          eq(corrections.businessId, business.id),
          eq(corrections.property, property),
          eq(corrections.status, "pending"),
          ne(corrections.proposalKey, row.proposalKey),
        ),
      );
    return decided(tx, correctionId);
  });
}

/** Rejects a correction and every other pending row of the same proposal; no fact changes. */
export async function rejectCorrection(db: Db, params: { correctionId: string; at?: Date }) {
  const { at = new Date() } = params;
  const correctionId = requireUuid(params.correctionId);
  return db.transaction(async (tx) => {
    const row = await pendingCorrection(tx, correctionId);
    await tx
      .update(corrections)
      .set({ status: "rejected", decidedAt: at, ...FORGET_SUBMITTER })
      .where(and(eq(corrections.proposalKey, row.proposalKey), eq(corrections.status, "pending")));
    return decided(tx, correctionId);
  });
}
