import { and, asc, eq } from "drizzle-orm";
import { agencies, ownershipClaims, type Db, type OwnershipMethod } from "@directory/db";
import { isOpenToSelfProof, isOwner } from "../claims/ownership";
import { EMAIL_CODE_TRIES } from "./email-codes";
import { listingContact } from "./listing-contact";

/** What the claim page shows a signed-in person about one listing; never a token, code or hash. */
export interface ClaimStatus {
  /** Website and email proofs are offered (the listing has no owner); otherwise only a review. */
  openToSelfProof: boolean;
  isOwner: boolean;
  /** The listing's current website, where a website token goes; null: no website proof. */
  website: string | null;
  /** Whether the listing has an email a code can go to (the address itself is shown masked when a code is sent). */
  hasEmail: boolean;
  /** The person's claims on the listing still waiting: a token to place, a code to enter, a review to be decided. */
  pending: {
    method: Exclude<OwnershipMethod, "operator" | "invitation">;
    status: "pending";
    expiresAt: Date | null;
    attemptsLeft: number | null;
    /** The agency the claim is for (the person chose it), so a new token or code is asked for it again; null: for the person. */
    agencySlug: string | null;
  }[];
}

export async function claimStatus(db: Db, params: { businessId: string; accountId: string; now: Date }): Promise<ClaimStatus> {
  const listing = await listingContact(db, params.businessId);
  const rows = await db
    .select({ method: ownershipClaims.method, expiresAt: ownershipClaims.expiresAt, attempts: ownershipClaims.attempts, agencySlug: agencies.slug })
    .from(ownershipClaims)
    .leftJoin(agencies, eq(agencies.id, ownershipClaims.agencyId))
    .where(and(eq(ownershipClaims.businessId, params.businessId), eq(ownershipClaims.accountId, params.accountId), eq(ownershipClaims.status, "pending")))
    .orderBy(asc(ownershipClaims.createdAt));
  return {
    openToSelfProof: await isOpenToSelfProof(db, params.businessId),
    isOwner: await isOwner(db, params.businessId, params.accountId),
    website: listing.website,
    hasEmail: listing.email !== null,
    pending: rows
      // A claim past its time is expired, though nobody has tried it since to mark it so.
      .filter((row) => row.expiresAt === null || row.expiresAt > params.now)
      .map((row) => ({
        method: row.method as Exclude<OwnershipMethod, "operator" | "invitation">,
        status: "pending" as const,
        expiresAt: row.expiresAt,
        attemptsLeft: row.method === "email" ? Math.max(0, EMAIL_CODE_TRIES - row.attempts) : null,
        agencySlug: row.agencySlug,
      })),
  };
}
