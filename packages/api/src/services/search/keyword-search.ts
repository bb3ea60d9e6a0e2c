import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { businessSearch, businesses, buyerQuestions, cityLexeme, preparedQuery, type City, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { selectBusinessRecords } from "../entities/business-lookup";
import { KEYWORD_CANDIDATES, KEYWORD_RANKING } from "./disclosures";
import { SELECT_LISTINGS, toListing, type ListingSource } from "./listing";
import { referenceData } from "./reference-data";
import { requireResolved, resolveCity, resolvedCity } from "./resolve";
import { correctSpelling } from "./spelling";

/** Buyer questions can only add so many candidates; the text index does the rest. */
const QUESTION_CANDIDATES = 200;

export type KeywordHit = ListingSource & {
  matchedBy: "full_text" | "fuzzy_name";
};

/** servableCondition, on the narrow table's copy of status and expiry. */
const servableSearchRow = servableCondition(businessSearch);

/**
 * Free-text search, one round trip when a word matches. Only when nothing matches: the query with
 * its misspelt words corrected against category words (services/spelling.ts, in memory), and only
 * when that finds nothing either, a trigram match on the name (businesses_name_trgm_idx), the slow
 * path, for misspelt business names.
 */
export async function searchByKeyword(db: Db, params: { query: string; city?: string; limit: number }) {
  const city = params.city ? await resolveCity(db, params.city) : null;
  if (params.city && !city) return { city: null, unknownCity: true, hits: [] as KeywordHit[] };
  const found = (records: ListingSource[], matchedBy: KeywordHit["matchedBy"]) => ({
    city,
    unknownCity: false,
    hits: records.map((record) => ({ ...record, matchedBy })),
  });

  const fullText = await rankByText(db, params.query, city, params.limit);
  if (fullText.length > 0) return found(fullText, "full_text");
  const corrected = correctSpelling(await referenceData(db), params.query);
  if (corrected !== null) {
    const correctedText = await rankByText(db, corrected, city, params.limit);
    if (correctedText.length > 0) return found(correctedText, "full_text");
  }

  const similarity = sql`similarity(${businesses.name}, ${params.query})`;
  const inCity = city ? eq(businesses.cityId, city.id) : undefined;
  const fuzzy = await selectBusinessRecords(db)
    .where(and(sql`${businesses.name} % ${params.query}`, inCity, servableCondition()))
    .orderBy(desc(similarity), asc(businesses.planTier), asc(businesses.name))
    .limit(params.limit);
  return found(fuzzy, "fuzzy_name");
}

/**
 * One round trip, a prepared statement: matches and ranks a bounded candidate set on the narrow
 * business_search table (business_search_document_idx; a city is one more lexeme in the same GIN
 * lookup), then reads the listing columns of the `limit` winners only. Candidates carry their rank,
 * not their tsvector, so the union that merges text and buyer-question matches sorts small rows.
 */
function rankedByTextQuery(withCity: boolean): SQL {
  const words = sql`websearch_to_tsquery('simple', ${sql.placeholder("query")})`;
  const matching = withCity ? sql`(${words} && (quote_literal(${sql.placeholder("cityLexeme")}))::tsquery)` : words;
  const inCity = withCity ? eq(businessSearch.cityId, sql.placeholder("cityId")) : undefined;
  const candidate = sql`select ${businessSearch.businessId} as business_id, ts_rank(${businessSearch.document}, ${words}) as rank, ${businessSearch.planTier} as plan_tier, ${businessSearch.name} as name from ${businessSearch}`;
  const questionMatches = sql`select distinct ${buyerQuestions.businessId} from ${buyerQuestions}
    where ${buyerQuestions.businessId} is not null and to_tsvector('simple', ${buyerQuestions.question} || ' ' || coalesce(${buyerQuestions.answer}, '')) @@ ${words}
    limit ${sql.raw(String(QUESTION_CANDIDATES))}`;
  // Two index lookups joined by union: an OR of the two in one WHERE makes PostgreSQL scan the table.
  return sql`${SELECT_LISTINGS}
    join (
      select business_id, rank from (
        (${candidate} where ${businessSearch.document} @@ ${matching} and ${servableSearchRow} limit ${sql.raw(String(KEYWORD_CANDIDATES))})
        union
        (${candidate} where ${and(sql`${businessSearch.businessId} in (${questionMatches})`, inCity, servableSearchRow)})
      ) candidates
      order by rank desc, plan_tier, name, business_id
      limit ${sql.placeholder("limit")}
    ) ranked on ranked.business_id = ${businesses.id}
    order by ranked.rank desc, ${businesses.planTier}, ${businesses.name}, ${businesses.id}`;
}

const rankedByText = preparedQuery<ListingSource>(rankedByTextQuery(false));
const rankedByTextInCity = preparedQuery<ListingSource>(rankedByTextQuery(true));

function rankByText(db: Db, query: string, city: City | null, limit: number): Promise<ListingSource[]> {
  return city ? rankedByTextInCity(db, { query, cityLexeme: cityLexeme(city.id), cityId: city.id, limit }) : rankedByText(db, { query, limit });
}

/** searchByKeyword as the procedures answer it: listings with how each matched; 404 for an unknown city. */
export async function keywordSearch(db: Db, params: { query: string; city?: string; limit: number; baseUrl: string }) {
  const result = await searchByKeyword(db, params);
  if (result.unknownCity) requireResolved(null, "city", params.city);
  return {
    query: params.query,
    city: result.city ? resolvedCity(result.city) : null,
    businesses: result.hits.map((hit) => ({ ...toListing(hit, params.baseUrl), matchedBy: hit.matchedBy })),
    total: result.hits.length,
    rankingModel: KEYWORD_RANKING,
  };
}
