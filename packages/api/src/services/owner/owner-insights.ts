import { eq, sql } from "drizzle-orm";
import { businesses, rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";

export const CITATION_PERIOD_DAYS = 90;

interface OwnBusiness {
  id: string;
  slug: string;
  name: string;
  cityId: number;
  categorySlug: string;
  geoScore: number;
  visibilityScore: number;
}

async function ownBusiness(db: Db, businessId: string): Promise<OwnBusiness> {
  const [row] = await db
    .select({
      id: businesses.id,
      slug: businesses.slug,
      name: businesses.name,
      cityId: businesses.cityId,
      categorySlug: businesses.categorySlug,
      geoScore: businesses.geoScore,
      visibilityScore: businesses.visibilityScore,
    })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new DomainError("NOT_FOUND", "The business this key is bound to no longer exists");
  return row;
}

/**
 * The business's citation checks, read from the documents rather than stored: each AI answer of
 * its city and category (named in it or not) and each AI answer that names it, with its place in
 * the answer. Stored, they were a row per answer and owner of the context, ~170 per answer in the
 * 1M world, and writing them held ingestion to a few documents a second.
 */
function citationChecks(business: OwnBusiness) {
  return sql`(
    select d.id, coalesce(d.engine, 'unknown') as engine, coalesce(d.query, '') as query, d.fetched_at as checked_at,
           m.position, m.business_id is not null as mentioned
    from documents d
    left join document_mentions m on m.document_id = d.id and m.business_id = ${business.id}
    where d.kind = 'ai_answer' and d.city_id = ${business.cityId} and d.category_slug = ${business.categorySlug}
    union
    select d.id, coalesce(d.engine, 'unknown'), coalesce(d.query, ''), d.fetched_at, m.position, true
    from document_mentions m join documents d on d.id = m.document_id
    where m.business_id = ${business.id} and d.kind = 'ai_answer'
  )`;
}

/**
 * The one place internal scores leave the service: to the business itself, through its own
 * business-scoped key. The citation rate covers the checks within the period before the latest.
 */
export async function ownVisibility(db: Db, businessId: string) {
  const business = await ownBusiness(db, businessId);
  const [totals] = rowsOf<{ checks: number; mentioned: number }>(
    await db.execute(sql`
      with checks as ${citationChecks(business)},
      period as (select max(checked_at) - make_interval(days => ${CITATION_PERIOD_DAYS}) as since from checks)
      select count(*)::int as checks, (count(*) filter (where mentioned))::int as mentioned
      from checks, period where checks.checked_at >= period.since`),
  );
  const checks = Number(totals?.checks ?? 0);
  const mentioned = Number(totals?.mentioned ?? 0);
  return {
    business: { slug: business.slug, name: business.name },
    visibilityScore: business.visibilityScore,
    geoScore: business.geoScore,
    citationRate: { checks, mentioned, rate: checks === 0 ? 0 : Math.round((mentioned / checks) * 1000) / 1000 },
    periodDays: CITATION_PERIOD_DAYS,
  };
}

export interface OwnCitationsParams {
  /** The business of the caller's business key. */
  businessId: string;
  limit: number;
}

/** Recent AI-platform checks of the business, newest first, bounded by the caller's limit. */
export async function ownCitations(db: Db, params: OwnCitationsParams) {
  const business = await ownBusiness(db, params.businessId);
  const rows = rowsOf<{ engine: string; query: string; mentioned: boolean; position: number | null; checked_at: Date | string }>(
    await db.execute(sql`
      select engine, query, mentioned, position, checked_at from ${citationChecks(business)} checks
      order by checked_at desc, id desc
      limit ${params.limit}`),
  );
  return {
    business: { slug: business.slug, name: business.name },
    checks: rows.map((row) => ({
      engine: row.engine,
      query: row.query,
      mentioned: row.mentioned,
      position: row.position === null ? null : Number(row.position),
      checkedAt: new Date(row.checked_at).toISOString(),
    })),
    total: rows.length,
  };
}
