import { and, asc, eq, isNull } from "drizzle-orm";
import { businesses, businessOwners, cities, type Db, type OwnershipMethod } from "@directory/db";

/** A person owns at most this many listings in one list (an agency manages more, through its own dashboard). */
export const ACCOUNT_BUSINESSES_LISTED_MAX = 200;

export interface AccountBusiness {
  slug: string;
  name: string;
  city: string;
  /** How the person proved it theirs: website, email, review or operator. */
  method: OwnershipMethod;
  ownerSince: string;
}

/** The listings a person owns now, by name. */
export async function listAccountBusinesses(db: Db, accountId: string): Promise<AccountBusiness[]> {
  const rows = await db
    .select({ slug: businesses.slug, name: businesses.name, city: cities.name, method: businessOwners.method, verifiedAt: businessOwners.verifiedAt })
    .from(businessOwners)
    .innerJoin(businesses, eq(businesses.id, businessOwners.businessId))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businessOwners.accountId, accountId), isNull(businessOwners.removedAt)))
    .orderBy(asc(businesses.name), asc(businesses.slug))
    .limit(ACCOUNT_BUSINESSES_LISTED_MAX);
  return rows.map((row) => ({
    slug: row.slug,
    name: row.name,
    city: row.city,
    method: row.method as OwnershipMethod,
    ownerSince: row.verifiedAt.toISOString(),
  }));
}
