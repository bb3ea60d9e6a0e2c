import { eq, sql } from "drizzle-orm";
import { citationDailySpend, rowsOf, type Db } from "@directory/db";
import { enqueueChecks, type CitationPair } from "./check-queue";
import type { CitationEngine } from "./engines";
import { periodOf } from "./questions";

/**
 * The written policy (docs/citation-checks.md): which pairs of a category and a city are queued
 * this period. Pairs not yet checked this period, those with an owner-verified listing first, then
 * the least recently checked (never first), then those with the most listings; as many as the
 * day's remaining budget covers for every engine, counting the checks already queued. Returns the
 * pairs queued.
 */
export async function scheduleChecks(db: Db, params: { engines: readonly CitationEngine[]; checksPerDay: number; now: Date }): Promise<CitationPair[]> {
  if (params.engines.length === 0) return [];
  const period = periodOf(params.now);
  const [spend] = await db.select({ calls: citationDailySpend.calls }).from(citationDailySpend).where(eq(citationDailySpend.day, period));
  const [waiting] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from citation_checks where status in ('queued', 'running')`));
  const remaining = params.checksPerDay - (spend?.calls ?? 0) - Number(waiting?.n ?? 0);
  const pairCount = Math.floor(remaining / params.engines.length);
  if (pairCount <= 0) return [];
  const rows = rowsOf<{ city_id: number; category_slug: string; city_name: string; country_code: string; category_name: string }>(
    await db.execute(sql`
      with pairs as (
        select b.city_id, b.category_slug, count(*) as listings from businesses b group by b.city_id, b.category_slug
      ),
      -- From the owners' side: probing each business for an owner made a 1M world's schedule take seconds.
      owned as (
        select distinct b.city_id, b.category_slug from business_owners o join businesses b on b.id = o.business_id where o.removed_at is null
      ),
      last_checked as (
        select city_id, category_slug, max(period) as period from citation_checks group by city_id, category_slug
      )
      select p.city_id, p.category_slug, c.name as city_name, c.country_code, k.name as category_name
      from pairs p
      join cities c on c.id = p.city_id
      join categories k on k.slug = p.category_slug
      left join owned w on w.city_id = p.city_id and w.category_slug = p.category_slug
      left join last_checked l on l.city_id = p.city_id and l.category_slug = p.category_slug
      where l.period is null or l.period < ${period}::date
      order by w.city_id is not null desc, l.period asc nulls first, p.listings desc, p.city_id, p.category_slug
      limit ${pairCount}`),
  );
  const pairs = rows.map((row) => ({
    cityId: row.city_id,
    categorySlug: row.category_slug,
    cityName: row.city_name,
    countryCode: row.country_code,
    categoryName: row.category_name,
  }));
  for (const pair of pairs) await enqueueChecks(db, pair, params.engines, params.now);
  return pairs;
}
