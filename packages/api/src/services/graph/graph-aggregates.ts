import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { requireResolved, resolveCategory, resolveCity, resolvedCategory, resolvedCity } from "../search/resolve";
import { SCORE_CONTRACT_VERSION } from "../search/disclosures";
import { businessRef, edgeIsLive, GRAPH_LIMITS, NOT_LIVE, type BusinessRefRow } from "./graph-sql";

/**
 * Categories named in the same documents as businesses of this category (in this city, when given).
 * share = co-mentioning documents / documents naming the category; lift = share / the other
 * category's share of all documents naming a business there (1 = as often as chance).
 */
export async function complementaryCategories(db: Db, params: { category: string; city?: string }) {
  const { category: categoryInput, city: cityInput } = params;
  const [category, city] = await Promise.all([resolveCategory(db, categoryInput), cityInput === undefined ? null : resolveCity(db, cityInput)]);
  await requireResolved(db, category, "category", categoryInput);
  if (cityInput !== undefined) await requireResolved(db, city, "city", cityInput);
  // Mentions carry their business's city and category (migration 0012): no businesses row is read.
  const inCity = city ? sql`m.city_id = ${city.id}` : sql`true`;
  const result = await db.execute(sql`
    with not_live as (${NOT_LIVE}),
    live_mentions as (
      select m.document_id, m.category_slug from document_mentions m
      where ${inCity} and not exists (select 1 from not_live n where n.id = m.business_id)
    ),
    anchor as (select distinct document_id from live_mentions where category_slug = ${category!.slug}),
    per_category as (select category_slug, count(distinct document_id)::int as documents from live_mentions group by category_slug),
    co as (
      select lm.category_slug, count(distinct lm.document_id)::int as documents
      from anchor a join live_mentions lm on lm.document_id = a.document_id
      where lm.category_slug <> ${category!.slug}
      group by lm.category_slug
    ),
    totals as (
      select (select count(distinct document_id) from live_mentions)::int as all_documents, (select count(*) from anchor)::int as anchor_documents
    )
    select co.category_slug, cat.name, co.documents as co_documents, pc.documents as category_documents, t.all_documents, t.anchor_documents
    from totals t
    left join co on true
    left join per_category pc on pc.category_slug = co.category_slug
    left join categories cat on cat.slug = co.category_slug`);
  const rows = rowsOf<{
    category_slug: string | null;
    name: string;
    co_documents: number;
    category_documents: number;
    all_documents: number;
    anchor_documents: number;
  }>(result);
  const all = Number(rows[0]?.all_documents ?? 0);
  const anchor = Number(rows[0]?.anchor_documents ?? 0);
  const categories = rows
    .filter((row): row is typeof row & { category_slug: string } => row.category_slug !== null)
    .map((row) => {
      const share = anchor === 0 ? 0 : Number(row.co_documents) / anchor;
      const baseline = all === 0 ? 0 : Number(row.category_documents) / all;
      return {
        category: { slug: row.category_slug, name: row.name },
        coMentions: Number(row.co_documents),
        share: round(share),
        lift: baseline === 0 ? 0 : round(share / baseline),
      };
    })
    .sort((x, y) => y.coMentions - x.coMentions || y.lift - x.lift || x.category.slug.localeCompare(y.category.slug))
    .slice(0, GRAPH_LIMITS.categories);
  return {
    apiVersion: SCORE_CONTRACT_VERSION,
    type: "complementary" as const,
    category: resolvedCategory(category!),
    city: city ? resolvedCity(city) : null,
    documents: anchor,
    categories,
    total: categories.length,
  };
}

export async function topPairs(db: Db) {
  const rows = rowsOf<{ weight: number } & Record<string, string>>(
    await db.execute(sql`
      with not_live as (${NOT_LIVE}),
      top as (
        -- "nulls last" as in co_mention_edges_weight_idx: the strongest edges are read in index order
        -- and the walk stops after the limit.
        select e.business_a, e.business_b, e.weight from co_mention_edges e
        where ${edgeIsLive}
        order by e.weight desc nulls last, e.business_a, e.business_b
        limit ${GRAPH_LIMITS.pairs}
      )
      select e.weight,
             a.id as a_id, a.slug as a_slug, a.name as a_name, a.category_slug as a_category_slug, ca.name as a_city_name,
             b.id as b_id, b.slug as b_slug, b.name as b_name, b.category_slug as b_category_slug, cb.name as b_city_name
      from top e
      join businesses a on a.id = e.business_a
      join businesses b on b.id = e.business_b
      join cities ca on ca.id = a.city_id
      join cities cb on cb.id = b.city_id
      order by e.weight desc, e.business_a, e.business_b`),
  );
  const side = (row: Record<string, unknown>, prefix: "a" | "b") =>
    businessRef({
      id: row[`${prefix}_id`],
      slug: row[`${prefix}_slug`],
      name: row[`${prefix}_name`],
      category_slug: row[`${prefix}_category_slug`],
      city_name: row[`${prefix}_city_name`],
    } as BusinessRefRow);
  const pairs = rows.map((row) => ({ businesses: [side(row, "a"), side(row, "b")], weight: Number(row.weight) }));
  return { apiVersion: SCORE_CONTRACT_VERSION, type: "top_pairs" as const, pairs, total: pairs.length };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
