import { eq, sql } from "drizzle-orm";
import { businesses, rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";

export const CITATION_PERIOD_DAYS = 90;

const rateOf = (mentioned: number, checks: number) => (checks === 0 ? 0 : Math.round((mentioned / checks) * 1000) / 1000);
const engineKey = (row: { engine: string; model: string | null }) => `${row.engine}\u0000${row.model ?? ""}`;

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
    select d.id, coalesce(d.engine, 'unknown') as engine, d.model, coalesce(d.query, '') as query, d.fetched_at as checked_at,
           m.position, m.business_id is not null as mentioned
    from documents d
    left join document_mentions m on m.document_id = d.id and m.business_id = ${business.id}
    where d.kind = 'ai_answer' and d.city_id = ${business.cityId} and d.category_slug = ${business.categorySlug}
    union
    select d.id, coalesce(d.engine, 'unknown'), d.model, coalesce(d.query, ''), d.fetched_at, m.position, true
    from document_mentions m join documents d on d.id = m.document_id
    where m.business_id = ${business.id} and d.kind = 'ai_answer'
  )`;
}

/** What each number of the owner's visibility means and its range (stated in every answer). */
export const OWNER_SCORE_SCALE = {
  visibilityScore:
    "0 to 100: over every AI answer on record for your city and category (and any other answer naming you), the mean of " +
    "1/sqrt(your place in the answer) where you are named and 0 where you are not, times 100. 100 = named first in every " +
    "answer, 0 = never named. Not limited to the period. It orders businesses of the same plan tier in search.",
  geoScore:
    "0 to 100, higher is better: the GEO (generative-engine optimisation) score stored with your listing. This service does " +
    "not derive it from the answers: demo listings carry a generated value, listings added or imported here start at 0.",
  citationRate: "checks = AI answers dated from since to until that concern you; mentioned = those naming you; rate = mentioned / checks, 0 to 1.",
} as const;

/**
 * The one place internal scores leave the service: to the business itself, through its own
 * business-scoped key. The citation rate covers the checks dated within the CITATION_PERIOD_DAYS
 * that end now (not before the latest check: a business no answer named lately must see that).
 */
export async function ownVisibility(db: Db, businessId: string) {
  const business = await ownBusiness(db, businessId);
  const until = new Date();
  const since = new Date(until.getTime() - CITATION_PERIOD_DAYS * 86_400_000);
  const [totals] = rowsOf<{ checks: number; mentioned: number }>(
    await db.execute(sql`
      select count(*)::int as checks, (count(*) filter (where mentioned))::int as mentioned
      from ${citationChecks(business)} checks
      where checks.checked_at >= ${since.toISOString()}::timestamptz and checks.checked_at <= ${until.toISOString()}::timestamptz`),
  );
  const checks = Number(totals?.checks ?? 0);
  const mentioned = Number(totals?.mentioned ?? 0);
  const byEngine = await engineSummaries(db, business, since, until);
  return {
    business: { slug: business.slug, name: business.name },
    visibilityScore: business.visibilityScore,
    geoScore: business.geoScore,
    citationRate: { checks, mentioned, rate: rateOf(mentioned, checks) },
    periodDays: CITATION_PERIOD_DAYS,
    since: since.toISOString(),
    until: until.toISOString(),
    scale: OWNER_SCORE_SCALE,
    byEngine,
  };
}

/**
 * The same checks as ownCitations, dated from since to until, summed up per engine and model: how
 * often the answers named the business and where, the latest check and its question, and the
 * checks by week (weeks start on Monday, UTC), oldest first, for the dashboard's history.
 */
async function engineSummaries(db: Db, business: OwnBusiness, since: Date, until: Date) {
  const within = sql`checks.checked_at >= ${since.toISOString()}::timestamptz and checks.checked_at <= ${until.toISOString()}::timestamptz`;
  const totals = rowsOf<{ engine: string; model: string | null; checks: number; mentioned: number; average_position: number | string | null }>(
    await db.execute(sql`
      select engine, model, count(*)::int as checks, (count(*) filter (where mentioned))::int as mentioned,
             avg(position) filter (where mentioned and position is not null) as average_position
      from ${citationChecks(business)} checks where ${within}
      group by engine, model order by engine, model`),
  );
  const latest = rowsOf<{ engine: string; model: string | null; query: string; checked_at: Date | string }>(
    await db.execute(sql`
      select distinct on (engine, model) engine, model, query, checked_at
      from ${citationChecks(business)} checks where ${within}
      order by engine, model, checked_at desc, id desc`),
  );
  const weeks = rowsOf<{ engine: string; model: string | null; week: string; checks: number; mentioned: number }>(
    await db.execute(sql`
      select engine, model, to_char(date_trunc('week', checked_at at time zone 'UTC'), 'YYYY-MM-DD') as week,
             count(*)::int as checks, (count(*) filter (where mentioned))::int as mentioned
      from ${citationChecks(business)} checks where ${within}
      group by engine, model, week order by engine, model, week`),
  );
  const latestOf = new Map(latest.map((row) => [engineKey(row), row]));
  return totals.map((row) => {
    const last = latestOf.get(engineKey(row));
    const checks = Number(row.checks);
    const mentioned = Number(row.mentioned);
    return {
      engine: row.engine,
      model: row.model,
      checks,
      mentioned,
      rate: rateOf(mentioned, checks),
      averagePosition: row.average_position === null ? null : Math.round(Number(row.average_position) * 10) / 10,
      latestCheck: last ? { checkedAt: new Date(last.checked_at).toISOString(), query: last.query } : null,
      weeks: weeks
        .filter((week) => engineKey(week) === engineKey(row))
        .map((week) => ({ week: week.week, checks: Number(week.checks), mentioned: Number(week.mentioned) })),
    };
  });
}

export interface OwnCitationsParams {
  /** The business of the caller's business key. */
  businessId: string;
  limit: number;
}

/** Recent AI-platform checks of the business, newest first, bounded by the caller's limit. */
export async function ownCitations(db: Db, params: OwnCitationsParams) {
  const business = await ownBusiness(db, params.businessId);
  const rows = rowsOf<{
    engine: string;
    model: string | null;
    query: string;
    mentioned: boolean;
    position: number | null;
    checked_at: Date | string;
    sources: string[];
  }>(
    await db.execute(sql`
      select checks.engine, checks.model, checks.query, checks.mentioned, checks.position, checks.checked_at, d.sources
      from ${citationChecks(business)} checks join documents d on d.id = checks.id
      order by checks.checked_at desc, checks.id desc
      limit ${params.limit}`),
  );
  return {
    business: { slug: business.slug, name: business.name },
    checks: rows.map((row) => ({
      engine: row.engine,
      model: row.model,
      query: row.query,
      mentioned: row.mentioned,
      position: row.position === null ? null : Number(row.position),
      checkedAt: new Date(row.checked_at).toISOString(),
      sources: row.sources,
    })),
    total: rows.length,
  };
}
