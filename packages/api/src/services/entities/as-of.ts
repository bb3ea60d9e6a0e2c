import { and, asc, desc, eq, gt, isNull, lte, or } from "drizzle-orm";
import { claims, type Claim, type Db, type OpeningHoursSpec } from "@directory/db";
import { MAX_CLAIMS } from "../claims/claims";
import type { BusinessRecord } from "./business-lookup";

/*
 * A profile as it stood at a past moment (asOf), read from the claim history: the claims the
 * directory held as current then (recorded by then, not yet superseded then). "Then" is when the
 * directory knew it (recordedAt), not when the source saw it (observedAt): asOf answers what a
 * caller asking at that moment would have read.
 */

export async function claimsAsOf(db: Db, businessId: string, asOf: Date): Promise<Claim[]> {
  return db
    .select()
    .from(claims)
    .where(and(eq(claims.businessId, businessId), lte(claims.recordedAt, asOf), or(isNull(claims.supersededAt), gt(claims.supersededAt, asOf))))
    .orderBy(asc(claims.property), desc(claims.observedAt))
    .limit(MAX_CLAIMS);
}

/**
 * The business's listing fields with the values of these claims over them, for the profile's
 * grouped sections; category and city keep today's names (their slugs rarely change).
 */
export function businessAsOf(business: BusinessRecord, held: readonly Claim[]): BusinessRecord {
  const next: BusinessRecord = { ...business };
  for (const claim of held) {
    const value = claim.value;
    switch (claim.property) {
      case "name":
        next.name = value as string;
        break;
      case "address":
        next.address = value as string | null;
        break;
      case "coordinates": {
        const { lat, lng } = value as { lat: number; lng: number };
        Object.assign(next, { lat, lng });
        break;
      }
      case "postalCode":
        next.postalCode = value as string | null;
        break;
      case "openingHours":
        next.openingHours = value as OpeningHoursSpec[];
        break;
      case "phone":
      case "website":
      case "email":
      case "description":
      case "usp":
      case "tagline":
        Object.assign(next, { [claim.property]: value });
        break;
      case "services":
      case "keywords":
        Object.assign(next, { [claim.property]: value as string[] });
        break;
      case "rating":
        next.rating = value as number | null;
        break;
      case "reviewCount":
        next.reviewCount = value as number;
        break;
    }
  }
  return next;
}
