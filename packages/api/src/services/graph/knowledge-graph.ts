import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findBusinessById, findBusinessBySlugOrHistory, requireServable } from "../entities/business-lookup";
import { SCORE_CONTRACT_VERSION } from "../search/disclosures";
import { isUuid } from "../shared/ids";
import { requireResolved, resolveCategory, resolveCity, resolvedCategory, resolvedCity } from "../search/resolve";

/** Every answer is bounded: neighbours, pairs and categories per answer; documents per edge. */
export const GRAPH_LIMITS = { neighbours: 20, documentsPerEdge: 3, pairs: 20, categories: 20 } as const;
/** Characters of context kept on each side of the two names in an excerpt. */
const EXCERPT_CONTEXT = 60;

export type KnowledgeGraphType = "network" | "complementary" | "top_pairs";

export interface KnowledgeGraphParams {
  type?: KnowledgeGraphType;
  businessId?: string;
  category?: string;
  city?: string;
}

/** The parameters each type reads; any other one given is refused, so a typo is never ignored. */
const PARAMETERS: Record<KnowledgeGraphType | "stats", { required: (keyof KnowledgeGraphParams)[]; optional: (keyof KnowledgeGraphParams)[] }> = {
  network: { required: ["businessId"], optional: [] },
  complementary: { required: ["category"], optional: ["city"] },
  top_pairs: { required: [], optional: [] },
  stats: { required: [], optional: [] },
};

function checkParameters(kind: KnowledgeGraphType | "stats", params: KnowledgeGraphParams): void {
  const rule = PARAMETERS[kind];
  const missing = rule.required.filter((name) => params[name] === undefined);
  if (missing.length > 0) throw new DomainError("MISSING_PARAMETER", `Missing required parameter: ${missing.join(", ")} (needed by type=${kind})`);
  const given = (["businessId", "category", "city"] as const).filter((name) => params[name] !== undefined);
  const unused = given.filter((name) => !rule.required.includes(name) && !rule.optional.includes(name));
  if (unused.length > 0) {
    const reason = kind === "stats" ? "without a type (statistics take no parameters)" : `with type=${kind}`;
    throw new DomainError("INVALID_INPUT", `Invalid parameter ${unused.join(", ")}: not used ${reason}`);
  }
}

/** spec 4.3: no type = statistics; network, complementary and top_pairs as the issue describes. */
export async function getKnowledgeGraph(db: Db, params: KnowledgeGraphParams) {
  const kind = params.type ?? "stats";
  checkParameters(kind, params);
  switch (kind) {
    case "network":
      return networkOf(db, params.businessId!);
    case "complementary":
      return complementaryCategories(db, params.category!, params.city);
    case "top_pairs":
      return topPairs(db);
    case "stats":
      return graphStatistics(db);
  }
}

/** SQL twin of isDecommissioned for a businesses alias: only servable businesses enter an answer. */
function servable(alias: string): SQL {
  const b = sql.raw(alias);
  return sql`${b}.status = 'active' and (${b}.subscription_expires_at is null or ${b}.subscription_expires_at > now())`;
}

/**
 * The businesses no graph answer may show (inactive or expired), as a CTE body: a few rows read
 * from businesses_inactive_idx and businesses_expiry_idx, so answers can leave them out without
 * reading a wide businesses row per mention.
 */
const NOT_LIVE = sql`select id from businesses where status <> 'active'
  union select id from businesses where subscription_expires_at is not null and subscription_expires_at <= now()`;

/** Both ends live; two anti-joins, since one with an OR of the ends becomes a nested loop (minutes at 1M). */
const edgeIsLive = sql`not exists (select 1 from not_live n where n.id = e.business_a) and not exists (select 1 from not_live n where n.id = e.business_b)`;

interface BusinessRefRow {
  id: string;
  slug: string;
  name: string;
  category_slug: string;
  city_name: string;
}

function businessRef(row: BusinessRefRow) {
  return { id: row.id, slug: row.slug, name: row.name, categorySlug: row.category_slug, city: row.city_name };
}

/** The immutable id, else a current or former slug; 404 unknown, 410 decommissioned. */
async function requireGraphBusiness(db: Db, reference: string) {
  const business = isUuid(reference) ? await findBusinessById(db, reference) : await findBusinessBySlugOrHistory(db, reference);
  return requireServable(business, isUuid(reference) ? `id "${reference}"` : `slug "${reference}"`);
}

/** An excerpt of the text around the first occurrences of two names, cut at word boundaries. */
export function excerptAround(body: string, spans: readonly { offset: number; length: number }[]): string {
  const start = Math.max(0, Math.min(...spans.map((span) => span.offset)) - EXCERPT_CONTEXT);
  const end = Math.min(body.length, Math.max(...spans.map((span) => span.offset + span.length)) + EXCERPT_CONTEXT);
  const from = start === 0 ? 0 : body.indexOf(" ", start) + 1 || start;
  const toSpace = end === body.length ? -1 : body.lastIndexOf(" ", end);
  const to = toSpace > from ? toSpace : end;
  return `${from > 0 ? "…" : ""}${body.slice(from, to).replace(/\s+/g, " ").trim()}${to < body.length ? "…" : ""}`;
}

async function networkOf(db: Db, reference: string) {
  const business = await requireGraphBusiness(db, reference);
  const neighbours = rowsOf<BusinessRefRow & { weight: number }>(
    await db.execute(sql`
      select n.id, n.slug, n.name, n.category_slug, c.name as city_name, e.weight
      from (
        select business_b as neighbour, weight from co_mention_edges where business_a = ${business.id}
        union all
        select business_a, weight from co_mention_edges where business_b = ${business.id}
      ) e
      join businesses n on n.id = e.neighbour
      join cities c on c.id = n.city_id
      where ${servable("n")}
      order by e.weight desc, n.name, n.id
      limit ${GRAPH_LIMITS.neighbours}`),
  );
  const ids = neighbours.map((row) => row.id);
  const support =
    ids.length === 0
      ? []
      : rowsOf<{
          neighbour: string;
          id: string;
          kind: "ai_answer" | "article";
          source: string;
          engine: string | null;
          fetched_at: Date | string;
          body: string;
          own_offset: number;
          own_length: number;
          other_offset: number;
          other_length: number;
        }>(
          await db.execute(sql`
            select ranked.* from (
              select other.business_id as neighbour, d.id, d.kind, d.source, d.engine, d.fetched_at, d.body,
                     own.offset as own_offset, own.length as own_length, other.offset as other_offset, other.length as other_length,
                     row_number() over (partition by other.business_id order by d.fetched_at desc, d.id) as rank
              from document_mentions own
              join document_mentions other on other.document_id = own.document_id
              join documents d on d.id = own.document_id
              where own.business_id = ${business.id} and other.business_id = any(${`{${ids.join(",")}}`}::uuid[])
            ) ranked
            where ranked.rank <= ${GRAPH_LIMITS.documentsPerEdge}
            order by ranked.neighbour, ranked.rank`),
        );
  return {
    apiVersion: SCORE_CONTRACT_VERSION,
    type: "network" as const,
    business: { id: business.id, slug: business.slug, name: business.name, categorySlug: business.categorySlug, city: business.cityName },
    neighbours: neighbours.map((row) => ({
      business: businessRef(row),
      weight: Number(row.weight),
      documents: support
        .filter((doc) => doc.neighbour === row.id)
        .map((doc) => ({
          id: doc.id,
          kind: doc.kind,
          source: doc.source,
          engine: doc.engine,
          fetchedAt: new Date(doc.fetched_at).toISOString(),
          excerpt: excerptAround(doc.body, [
            { offset: doc.own_offset, length: doc.own_length },
            { offset: doc.other_offset, length: doc.other_length },
          ]),
        })),
    })),
    total: neighbours.length,
    limits: { neighbours: GRAPH_LIMITS.neighbours, documentsPerEdge: GRAPH_LIMITS.documentsPerEdge },
  };
}

/**
 * Categories named in the same documents as businesses of this category (in this city, when given).
 * share = co-mentioning documents / documents naming the category; lift = share / the other
 * category's share of all documents naming a business there (1 = as often as chance).
 */
async function complementaryCategories(db: Db, categoryInput: string, cityInput: string | undefined) {
  const [category, city] = await Promise.all([resolveCategory(db, categoryInput), cityInput === undefined ? null : resolveCity(db, cityInput)]);
  requireResolved(category, "category", categoryInput);
  if (cityInput !== undefined) requireResolved(city, "city", cityInput);
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

async function topPairs(db: Db) {
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

/** Counts over the graph's own tables, less what touches the few businesses not live: no businesses row is read per mention. */
async function graphStatistics(db: Db) {
  const [row] = rowsOf<{ documents: number; mentions: number; businesses: number; edges: number; last_ingest: Date | string | null }>(
    await db.execute(sql`
      with not_live as (${NOT_LIVE}),
      live_mentions as (
        select m.business_id from document_mentions m where not exists (select 1 from not_live n where n.id = m.business_id)
      )
      select
        (select count(*)::int from documents) as documents,
        (select count(*)::int from live_mentions) as mentions,
        (select count(distinct business_id)::int from live_mentions) as businesses,
        (select count(*)::int from co_mention_edges e
         where ${edgeIsLive}) as edges,
        (select max(ingested_at) from documents) as last_ingest`),
  );
  return {
    apiVersion: SCORE_CONTRACT_VERSION,
    type: "stats" as const,
    documents: Number(row?.documents ?? 0),
    mentions: Number(row?.mentions ?? 0),
    businessesMentioned: Number(row?.businesses ?? 0),
    edges: Number(row?.edges ?? 0),
    lastIngestAt: row?.last_ingest ? new Date(row.last_ingest).toISOString() : null,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
