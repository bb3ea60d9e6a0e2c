import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import { businesses, citationChecks, type Db } from "@directory/db";
import { DomainError } from "../errors";

export const CITATION_PERIOD_DAYS = 90;

async function ownBusiness(db: Db, businessId: string) {
  const [row] = await db
    .select({ slug: businesses.slug, name: businesses.name, geoScore: businesses.geoScore, visibilityScore: businesses.visibilityScore })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new DomainError("NOT_FOUND", "The business this key is bound to no longer exists");
  return row;
}

/**
 * The one place internal scores leave the service: to the business itself, through its own
 * business-scoped key. The citation rate covers the latest checks within the period.
 */
export async function ownVisibility(db: Db, businessId: string) {
  const business = await ownBusiness(db, businessId);
  const [latest] = await db.select({ at: sql<Date | null>`max(${citationChecks.checkedAt})` }).from(citationChecks).where(eq(citationChecks.businessId, businessId));
  const since = latest?.at ? new Date(new Date(latest.at).getTime() - CITATION_PERIOD_DAYS * 86_400_000) : new Date(0);
  const [totals] = await db
    .select({ checks: count(), mentioned: sql<number>`count(*) filter (where ${citationChecks.mentioned})::int` })
    .from(citationChecks)
    .where(and(eq(citationChecks.businessId, businessId), gte(citationChecks.checkedAt, since)));
  const checks = totals?.checks ?? 0;
  const mentioned = Number(totals?.mentioned ?? 0);
  return {
    business: { slug: business.slug, name: business.name },
    visibilityScore: business.visibilityScore,
    geoScore: business.geoScore,
    citationRate: { checks, mentioned, rate: checks === 0 ? 0 : Math.round((mentioned / checks) * 1000) / 1000 },
    periodDays: CITATION_PERIOD_DAYS,
  };
}

/** Recent AI-platform checks of the business, newest first, bounded by the caller's limit. */
export async function ownCitations(db: Db, businessId: string, limit: number) {
  const business = await ownBusiness(db, businessId);
  const rows = await db
    .select({ engine: citationChecks.engine, query: citationChecks.query, mentioned: citationChecks.mentioned, position: citationChecks.position, checkedAt: citationChecks.checkedAt })
    .from(citationChecks)
    .where(eq(citationChecks.businessId, businessId))
    .orderBy(desc(citationChecks.checkedAt), desc(citationChecks.id))
    .limit(limit);
  return {
    business: { slug: business.slug, name: business.name },
    checks: rows.map((row) => ({ ...row, checkedAt: row.checkedAt.toISOString() })),
    total: rows.length,
  };
}
