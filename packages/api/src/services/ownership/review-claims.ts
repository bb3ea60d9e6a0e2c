import { and, eq } from "drizzle-orm";
import { ownershipClaims, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { isOwner } from "../claims/ownership";
import { lockBusiness } from "../claims/lifecycle";
import { cleanOwnerText, hasVisibleText, OWNER_TEXT_LIMITS } from "../shared/owner-text";

/*
 * Proving a listing by review: the person says why it is theirs, and an operator decides
 * (services/claims/ownership-review.ts). The only way to claim a listing that already has an owner,
 * and open to every listing. One pending review per person and listing: asking again replaces
 * what it says, so the operator's queue holds one entry each.
 */

export interface RequestedReview {
  status: "pending";
  /** False when this replaced the evidence of the person's pending review. */
  created: boolean;
  createdAt: Date;
}

export async function requestReview(
  db: Db,
  params: { businessId: string; accountId: string; agencyId?: string | null; evidence: string },
): Promise<RequestedReview> {
  const evidence = cleanOwnerText(params.evidence.trim(), OWNER_TEXT_LIMITS.long);
  if (!hasVisibleText(evidence))
    throw new DomainError("INVALID_INPUT", "Invalid parameter evidence: say why the listing is yours, in words an operator can read");
  if (await isOwner(db, params.businessId, params.accountId)) throw new DomainError("CONFLICT", "You already own this listing");
  return db.transaction(async (tx) => {
    // Under the business lock, so two requests at once leave one pending review.
    await lockBusiness(tx, params.businessId);
    const mine = and(
      eq(ownershipClaims.businessId, params.businessId),
      eq(ownershipClaims.accountId, params.accountId),
      eq(ownershipClaims.method, "review"),
      eq(ownershipClaims.status, "pending"),
    );
    const [updated] = await tx
      .update(ownershipClaims)
      .set({ evidence, agencyId: params.agencyId ?? null })
      .where(mine)
      .returning({ createdAt: ownershipClaims.createdAt });
    if (updated) return { status: "pending" as const, created: false, createdAt: updated.createdAt };
    const [inserted] = await tx
      .insert(ownershipClaims)
      .values({ businessId: params.businessId, accountId: params.accountId, agencyId: params.agencyId ?? null, method: "review", status: "pending", evidence })
      .returning({ createdAt: ownershipClaims.createdAt });
    return { status: "pending" as const, created: true, createdAt: inserted!.createdAt };
  });
}
