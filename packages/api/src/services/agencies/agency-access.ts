import { and, asc, count, eq, isNull, ne, sql } from "drizzle-orm";
import { agencies, agencyBusinessAccess, businesses, cities, staleCountAt, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { revokeBusinessKeysHeldBy } from "../owner/business-keys";

/** Businesses one agency dashboard lists, and agencies one listing grants: bounded like every list. */
export const AGENCY_BUSINESSES_MAX = 500;
export const BUSINESS_AGENCIES_MAX = 20;

export interface BusinessAgencyView {
  slug: string;
  name: string;
  grantedAt: string;
}

/** The agencies that may manage the listing now. */
export async function listBusinessAgencies(db: Db, businessId: string): Promise<BusinessAgencyView[]> {
  const rows = await db
    .select({ slug: agencies.slug, name: agencies.name, grantedAt: agencyBusinessAccess.grantedAt })
    .from(agencyBusinessAccess)
    .innerJoin(agencies, eq(agencies.id, agencyBusinessAccess.agencyId))
    .where(and(eq(agencyBusinessAccess.businessId, businessId), isNull(agencyBusinessAccess.withdrawnAt)))
    .orderBy(asc(agencies.name))
    .limit(BUSINESS_AGENCIES_MAX);
  return rows.map((row) => ({ ...row, grantedAt: row.grantedAt.toISOString() }));
}

async function agencyBySlug(db: Db, agencySlug: string) {
  const [agency] = await db.select().from(agencies).where(eq(agencies.slug, agencySlug));
  if (!agency) throw new DomainError("NOT_FOUND", `No agency "${agencySlug}"`);
  return agency;
}

/** An owner lets an agency manage the listing (again, if it was withdrawn); at most BUSINESS_AGENCIES_MAX at once, so the list shows every one. */
export async function grantAgencyAccess(db: Db, params: { businessId: string; agencySlug: string; grantedBy: string }): Promise<BusinessAgencyView> {
  const agency = await agencyBySlug(db, params.agencySlug);
  const at = new Date();
  await db.transaction(async (tx) => {
    // The listing's row is the lock: two grants at once cannot both pass the cap.
    await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, params.businessId)).for("update");
    const [others] = await tx
      .select({ n: count() })
      .from(agencyBusinessAccess)
      .where(
        and(eq(agencyBusinessAccess.businessId, params.businessId), ne(agencyBusinessAccess.agencyId, agency.id), isNull(agencyBusinessAccess.withdrawnAt)),
      );
    if ((others?.n ?? 0) >= BUSINESS_AGENCIES_MAX) {
      throw new DomainError("CONFLICT", `A listing grants at most ${BUSINESS_AGENCIES_MAX} agencies access: withdraw one first`);
    }
    await tx
      .insert(agencyBusinessAccess)
      .values({ agencyId: agency.id, businessId: params.businessId, grantedBy: params.grantedBy, grantedAt: at })
      .onConflictDoUpdate({
        target: [agencyBusinessAccess.agencyId, agencyBusinessAccess.businessId],
        set: { grantedBy: params.grantedBy, grantedAt: at, withdrawnAt: null },
      });
  });
  return { slug: agency.slug, name: agency.name, grantedAt: at.toISOString() };
}

/** An owner withdraws an agency's access; the business keys the agency took for the listing are revoked with it. */
export async function withdrawAgencyAccess(db: Db, params: { businessId: string; agencySlug: string }): Promise<void> {
  const agency = await agencyBySlug(db, params.agencySlug);
  await db.transaction(async (tx) => {
    const at = new Date();
    const withdrawn = await tx
      .update(agencyBusinessAccess)
      .set({ withdrawnAt: at })
      .where(
        and(eq(agencyBusinessAccess.agencyId, agency.id), eq(agencyBusinessAccess.businessId, params.businessId), isNull(agencyBusinessAccess.withdrawnAt)),
      )
      .returning({ agencyId: agencyBusinessAccess.agencyId });
    if (withdrawn.length === 0) throw new DomainError("NOT_FOUND", `The agency "${params.agencySlug}" has no access to this listing`);
    await revokeBusinessKeysHeldBy(tx, { businessId: params.businessId, holderAccountId: agency.accountId, at });
  });
}

/** One of an agency's businesses with its standing, for the agency dashboard (internal scores included: the agency manages it). */
export interface AgencyBusinessStanding {
  slug: string;
  name: string;
  city: string;
  verified: boolean;
  staleFacts: number;
  visibilityScore: number;
  newLeads: number;
  openCorrections: number;
}

export async function listAgencyBusinesses(db: Db, agencyId: string, now = new Date()): Promise<AgencyBusinessStanding[]> {
  const rows = await db
    .select({
      slug: businesses.slug,
      name: businesses.name,
      city: cities.name,
      ownership: businesses.ownership,
      factsStaleAfter: businesses.factsStaleAfter,
      visibilityScore: businesses.visibilityScore,
      newLeads: sql<number>`(select count(*)::int from leads l where l.business_id = ${businesses.id} and l.status = 'new')`,
      openCorrections: sql<number>`(select count(*)::int from corrections c where c.business_id = ${businesses.id} and c.status = 'pending')`,
    })
    .from(agencyBusinessAccess)
    .innerJoin(businesses, eq(businesses.id, agencyBusinessAccess.businessId))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(agencyBusinessAccess.agencyId, agencyId), isNull(agencyBusinessAccess.withdrawnAt)))
    .orderBy(asc(businesses.name), asc(businesses.slug))
    .limit(AGENCY_BUSINESSES_MAX);
  return rows.map((row) => ({
    slug: row.slug,
    name: row.name,
    city: row.city,
    verified: row.ownership === "owner_verified",
    staleFacts: staleCountAt(row.factsStaleAfter ?? [], now),
    visibilityScore: row.visibilityScore,
    newLeads: Number(row.newLeads),
    openCorrections: Number(row.openCorrections),
  }));
}
