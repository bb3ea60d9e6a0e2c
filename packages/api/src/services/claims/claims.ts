import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { claims, type Claim, type ClaimProperty, type Db } from "@directory/db";
import { recordUrlOf } from "../registry/attribution";
import { staleAfterOf } from "./freshness";

/** A claim as every door shows it: provenance included, dates as ISO strings, and when it goes stale (freshness.ts). */
export function toPublicClaim(claim: Claim) {
  const staleAfter = staleAfterOf(claim.property, claim.observedAt);
  return {
    id: claim.id,
    property: claim.property as ClaimProperty,
    value: claim.value,
    source: claim.source,
    recordId: claim.recordId,
    recordUrl: recordUrlOf(claim.recordId),
    confidence: Math.round(claim.confidence * 100) / 100,
    verification: claim.verification,
    observedAt: claim.observedAt.toISOString(),
    staleAfter: staleAfter.toISOString(),
    stale: staleAfter.getTime() <= Date.now(),
    supersededAt: claim.supersededAt?.toISOString() ?? null,
    supersededBy: claim.supersededBy,
  };
}

export type PublicClaim = ReturnType<typeof toPublicClaim>;

/** A profile has a dozen properties; even a long history stays far below this bound. */
export const MAX_CLAIMS = 1_000;

export interface ListClaimsParams {
  businessId: string;
  /** Superseded claims too (newest first per property), not only the current ones. */
  history: boolean;
}

/** Current claims only, or (history) every claim including superseded ones, newest first; bounded. */
export async function listClaims(db: Db, params: ListClaimsParams): Promise<Claim[]> {
  return db
    .select()
    .from(claims)
    .where(and(eq(claims.businessId, params.businessId), params.history ? undefined : isNull(claims.supersededAt)))
    .orderBy(asc(claims.property), desc(claims.observedAt))
    .limit(MAX_CLAIMS);
}
