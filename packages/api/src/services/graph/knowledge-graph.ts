import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findBusinessById, findBusinessBySlugOrHistory, requireServable } from "../entities/business-lookup";
import { SCORE_CONTRACT_VERSION } from "../search/disclosures";
import { isUuid } from "../shared/ids";
import { complementaryCategories, topPairs } from "./graph-aggregates";
import { graphStatistics } from "./graph-statistics";
import { businessRef, GRAPH_LIMITS, servable, type BusinessRefRow } from "./graph-sql";

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
      return complementaryCategories(db, { category: params.category!, city: params.city });
    case "top_pairs":
      return topPairs(db);
    case "stats":
      return graphStatistics(db);
  }
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
