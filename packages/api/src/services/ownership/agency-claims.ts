import { and, eq, isNull } from "drizzle-orm";
import { agencies, agencyMembers, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { membershipOf } from "../agencies/agencies";
import { grantAgencyAccess } from "../agencies/agency-access";

/*
 * A claim made for an agency: the person names one of their agencies when they start it, the
 * claim row keeps the agency, and when the claim succeeds the agency gets access to the listing
 * in the same transaction that makes the person its owner.
 */

/** The agency a claim is started for, as its id; a person who is not one of its members gets 404 and nothing is written. */
export async function claimingAgencyId(db: Db, params: { agencySlug?: string; accountId: string }): Promise<string | null> {
  if (params.agencySlug === undefined) return null;
  return (await membershipOf(db, params.agencySlug, params.accountId)).id;
}

/**
 * Inside the transaction that completes a claim: the claim's agency gets access to the listing.
 * The person must still be one of its members: one removed since the claim began gets CONFLICT,
 * and the transaction (the owner too) is rolled back.
 */
export async function grantAccessToClaimingAgency(tx: Db, params: { agencyId: string | null; accountId: string; businessId: string }): Promise<void> {
  if (params.agencyId === null) return;
  const [agency] = await tx
    .select({ slug: agencies.slug })
    .from(agencies)
    .innerJoin(agencyMembers, and(eq(agencyMembers.agencyId, agencies.id), eq(agencyMembers.accountId, params.accountId), isNull(agencyMembers.removedAt)))
    .where(eq(agencies.id, params.agencyId));
  if (!agency) throw new DomainError("CONFLICT", "This claim was made for an agency the claimant is no longer a member of: start it again");
  await grantAgencyAccess(tx, { businessId: params.businessId, agencySlug: agency.slug, grantedBy: params.accountId });
}
