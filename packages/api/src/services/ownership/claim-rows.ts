import { and, desc, eq, gt } from "drizzle-orm";
import { ownershipClaims, type Db, type OwnershipClaim } from "@directory/db";
import { DomainError } from "../../errors";
import { addOwner, isOpenToSelfProof } from "../claims/ownership";
import { lockBusiness } from "../claims/lifecycle";
import { grantAccessToClaimingAgency } from "./agency-claims";

/*
 * The rows of a person's claims on a listing. Every claim is looked up by listing AND person, so a
 * token or code made for one never reaches another's claim. Writes that replace or complete a claim
 * run under the business row lock, so two requests at once leave one pending claim per method and
 * make one owner.
 */

export type ProofMethod = "website" | "email";

/** The refusal of a proof on a listing that has an owner (or was verified before owners were recorded). */
export const OWNED_LISTING_MESSAGE =
  "This listing already has an owner: it can only be claimed through a review by an operator: ask for one, saying how the business is yours";

/** Refuses a proof on a listing that is not open to one. */
export async function assertOpenToSelfProof(db: Db, businessId: string): Promise<void> {
  if (!(await isOpenToSelfProof(db, businessId))) throw new DomainError("CONFLICT", OWNED_LISTING_MESSAGE);
}

/**
 * Starts a proof: the person's earlier pending claim of this method for this listing expires and a
 * new one holds the secret's hash (and the agency it is made for, if any). Returns the new claim's id.
 */
export async function replacePendingClaim(
  db: Db,
  params: { businessId: string; accountId: string; agencyId?: string | null; method: ProofMethod; secretHash: string; expiresAt: Date; now: Date },
): Promise<string> {
  return db.transaction(async (tx) => {
    await lockBusiness(tx, params.businessId);
    await tx
      .update(ownershipClaims)
      .set({ status: "expired", decidedAt: params.now })
      .where(
        and(
          eq(ownershipClaims.businessId, params.businessId),
          eq(ownershipClaims.accountId, params.accountId),
          eq(ownershipClaims.method, params.method),
          eq(ownershipClaims.status, "pending"),
        ),
      );
    const [row] = await tx
      .insert(ownershipClaims)
      .values({
        businessId: params.businessId,
        accountId: params.accountId,
        agencyId: params.agencyId ?? null,
        method: params.method,
        status: "pending",
        secretHash: params.secretHash,
        attempts: 0,
        expiresAt: params.expiresAt,
      })
      .returning({ id: ownershipClaims.id });
    return row!.id;
  });
}

/** The person's latest claim of a method on a listing, whatever its status (null: none). */
export async function latestClaim(db: Db, params: { businessId: string; accountId: string; method: ProofMethod | "review" }): Promise<OwnershipClaim | null> {
  const [row] = await db
    .select()
    .from(ownershipClaims)
    .where(and(eq(ownershipClaims.businessId, params.businessId), eq(ownershipClaims.accountId, params.accountId), eq(ownershipClaims.method, params.method)))
    .orderBy(desc(ownershipClaims.createdAt))
    .limit(1);
  return row ?? null;
}

/** Marks a claim expired (past its time, or out of tries) unless something else decided it first. */
export async function expireClaim(db: Db, claimId: string, now: Date): Promise<void> {
  await db
    .update(ownershipClaims)
    .set({ status: "expired", decidedAt: now })
    .where(and(eq(ownershipClaims.id, claimId), eq(ownershipClaims.status, "pending")));
}

/**
 * A proven claim, in one transaction under the business lock: the listing must still be open to
 * proof, the claim still pending and in time (so a token or code works once), and the person
 * becomes an owner through the one write path (addOwner: owner_verified, one entity.updated); a
 * claim made for an agency gives the agency access in the same transaction.
 */
export async function completeProof(db: Db, params: { claimId: string; businessId: string; accountId: string; method: ProofMethod; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    await lockBusiness(tx, params.businessId);
    await assertOpenToSelfProof(tx, params.businessId);
    const used = await tx
      .update(ownershipClaims)
      .set({ status: "verified", decidedAt: params.now, decidedBy: `account:${params.accountId}` })
      .where(and(eq(ownershipClaims.id, params.claimId), eq(ownershipClaims.status, "pending"), gt(ownershipClaims.expiresAt, params.now)))
      .returning({ agencyId: ownershipClaims.agencyId });
    if (used.length === 0) throw new DomainError("CONFLICT", "This claim was already used or has expired: start again");
    await addOwner(tx, {
      businessId: params.businessId,
      accountId: params.accountId,
      method: params.method,
      decidedBy: `account:${params.accountId}`,
      at: params.now,
    });
    await grantAccessToClaimingAgency(tx, { agencyId: used[0]!.agencyId, accountId: params.accountId, businessId: params.businessId });
  });
}
