import { and, eq, sql, type SQL } from "drizzle-orm";
import { businessSearch, businesses, buyerQuestions, cityLexeme, countryLexeme, preparedQuery, type City, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { KEYWORD_CANDIDATES, type KeywordSort } from "./disclosures";
import { selectListings, type ListingSource } from "./listing";
import { RATING_ORDER, ratingOrderOf } from "./rating-order";

/* The hot path of a keyword search: its words matched and ranked in one prepared statement. */

/** Buyer questions can only add so many candidates; the text index does the rest. */
const QUESTION_CANDIDATES = 200;

/** Most candidates a keyword search ranks: the text index's and the buyer questions' caps together. */
export const KEYWORD_RANKED_MAX = KEYWORD_CANDIDATES + QUESTION_CANDIDATES;

/** A ranked text match also carries the number of all candidates it was ranked among. */
export type TextHit = ListingSource & { totalMatches: number };

/** servableCondition, on the narrow table's copy of status and expiry. */
export const servableSearchRow = servableCondition(businessSearch);

/** Where a keyword search looks: a city, a country (a city is in one already), or both null: everywhere. */
export interface KeywordScope {
  city: City | null;
  country: string | null;
}

/**
 * The words of a query as the document holds them: accents folded (search_fold, migration 0034), as
 * the stored words are. A scalar subquery, so PostgreSQL computes it once per execution (an
 * InitPlan): search_fold is an inlined SQL function, and written bare in the prepared statement's
 * generic plan, its translate() and websearch_to_tsquery ran again for every candidate's recheck and
 * ts_rank, 500 candidates a search (keyword p95 16-20 ms became 35-39 ms at 200,000 businesses).
 */
export function queryWords(query: SQL): SQL {
  return sql`(select websearch_to_tsquery('simple', search_fold(${query})))`;
}

/** The scope's lexeme ("in city <id>" or "in country <CC>") as a tsquery the document must match too; null everywhere. */
export function scopeLexeme(scope: KeywordScope): string | null {
  if (scope.city) return cityLexeme(scope.city.id);
  return scope.country ? countryLexeme(scope.country) : null;
}

/**
 * One round trip, a prepared statement: matches and ranks a bounded candidate set on the narrow
 * business_search table (business_search_document_idx; a city is one more lexeme in the same GIN
 * lookup), then reads the listing columns of the `limit` winners only. Candidates carry their rank,
 * not their tsvector, so the union that merges text and buyer-question matches sorts small rows.
 */
function rankedByTextQuery(scope: "everywhere" | "city" | "country", sort: KeywordSort): SQL {
  const words = queryWords(sql`${sql.placeholder("query")}`);
  const place = sql`(quote_literal(${sql.placeholder("scopeLexeme")}))::tsquery`;
  const matching = scope === "everywhere" ? words : sql`(${words} && ${place})`;
  const inCity =
    scope === "city" ? eq(businessSearch.cityId, sql.placeholder("cityId")) : scope === "country" ? sql`${businessSearch.document} @@ ${place}` : undefined;
  const candidate = sql`select ${businessSearch.businessId} as business_id, ts_rank(${businessSearch.document}, ${words}) as rank, ${businessSearch.planTier} as plan_tier, ${businessSearch.name} as name from ${businessSearch}`;
  const questionMatches = sql`select distinct ${buyerQuestions.businessId} from ${buyerQuestions}
    where ${buyerQuestions.businessId} is not null and to_tsvector('simple', search_fold(${buyerQuestions.question} || ' ' || coalesce(${buyerQuestions.answer}, ''))) @@ ${words}
    limit ${sql.raw(String(QUESTION_CANDIDATES))}`;
  // sort=rating reads the candidates' ratings (at most KEYWORD_CANDIDATES + QUESTION_CANDIDATES rows).
  const byRating = sort === "rating";
  const rated = byRating ? sql`join ${businesses} rated on rated.id = candidates.business_id` : sql``;
  const [rating, reviewCount, name, id] = ["rated.rating", "rated.review_count", "rated.name", "rated.id"].map((column) => sql.raw(column));
  const candidateOrder = byRating
    ? ratingOrderOf({ rating: rating!, reviewCount: reviewCount!, name: name!, id: id! })
    : sql`rank desc, plan_tier, name, business_id`;
  const finalOrder = byRating ? sql.join(RATING_ORDER, sql`, `) : sql`ranked.rank desc, ${businesses.planTier}, ${businesses.name}, ${businesses.id}`;
  // Two index lookups joined by union: an OR of the two in one WHERE makes PostgreSQL scan the table.
  // count(*) over () counts the candidates before the limit: they are all read and sorted anyway.
  return sql`${selectListings(sql`ranked.total_matches as "totalMatches"`)}
    join (
      select business_id, rank, (count(*) over ())::int as total_matches from (
        (${candidate} where ${businessSearch.document} @@ ${matching} and ${servableSearchRow} limit ${sql.raw(String(KEYWORD_CANDIDATES))})
        union
        (${candidate} where ${and(sql`${businessSearch.businessId} in (${questionMatches})`, inCity, servableSearchRow)})
      ) candidates
      ${rated}
      order by ${candidateOrder}
      limit ${sql.placeholder("limit")}
    ) ranked on ranked.business_id = ${businesses.id}
    order by ${finalOrder}`;
}

/** One prepared statement per order and scope. */
const RANKED_BY_TEXT = {
  relevance: {
    everywhere: preparedQuery<TextHit>(rankedByTextQuery("everywhere", "relevance")),
    inCity: preparedQuery<TextHit>(rankedByTextQuery("city", "relevance")),
    inCountry: preparedQuery<TextHit>(rankedByTextQuery("country", "relevance")),
  },
  rating: {
    everywhere: preparedQuery<TextHit>(rankedByTextQuery("everywhere", "rating")),
    inCity: preparedQuery<TextHit>(rankedByTextQuery("city", "rating")),
    inCountry: preparedQuery<TextHit>(rankedByTextQuery("country", "rating")),
  },
} satisfies Record<KeywordSort, unknown>;

/** The ranked text matches of the words in the scope, at most `limit`, each with the number of all candidates. */
export function rankByText(db: Db, query: string, scope: KeywordScope, limit: number, sort: KeywordSort): Promise<TextHit[]> {
  const queries = RANKED_BY_TEXT[sort];
  const lexeme = scopeLexeme(scope);
  if (scope.city) return queries.inCity(db, { query, scopeLexeme: lexeme!, cityId: scope.city.id, limit });
  return lexeme ? queries.inCountry(db, { query, scopeLexeme: lexeme, limit }) : queries.everywhere(db, { query, limit });
}
