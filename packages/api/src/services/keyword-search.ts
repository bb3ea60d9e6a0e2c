import { and, asc, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { businesses, buyerQuestions, type Db } from "@directory/db";
import { servableCondition } from "./active-business";
import { selectBusinessRecords, type BusinessRecord } from "./business-lookup";
import { resolveCity } from "./search";

export const KEYWORD_RANKING =
  "Ordered by text relevance (PostgreSQL full-text rank over name, description, services, USP, tagline, keywords and the owner's buyer questions), then plan tier, then name. " +
  "When no word matches exactly, names are matched by trigram similarity to tolerate typos.";

/** Buyer questions can only add so many candidates; the text index does the rest. */
const QUESTION_CANDIDATES = 200;

export interface KeywordHit extends BusinessRecord {
  matchedBy: "full_text" | "fuzzy_name";
}

/**
 * Free-text search: full-text first (businesses_search_document_idx, and buyer_questions_text_idx
 * for owner questions), and only when that finds nothing, a trigram match on the name
 * (businesses_name_trgm_idx) so "dentst" still finds dentists.
 */
export async function searchByKeyword(db: Db, params: { query: string; city?: string; limit: number }) {
  const city = params.city ? await resolveCity(db, params.city) : null;
  if (params.city && !city) return { city: null, unknownCity: true, hits: [] as KeywordHit[] };
  const tsQuery = sql`websearch_to_tsquery('simple', ${params.query})`;
  const inCity = city ? eq(businesses.cityId, city.id) : undefined;

  const questionMatches = await db
    .selectDistinct({ id: buyerQuestions.businessId })
    .from(buyerQuestions)
    .where(and(isNotNull(buyerQuestions.businessId), sql`to_tsvector('simple', ${buyerQuestions.question} || ' ' || coalesce(${buyerQuestions.answer}, '')) @@ ${tsQuery}`))
    .limit(QUESTION_CANDIDATES);
  const questionIds = questionMatches.map((row) => row.id).filter((id): id is string => id !== null);
  const textMatch = questionIds.length > 0 ? or(sql`${businesses.searchDocument} @@ ${tsQuery}`, inArray(businesses.id, questionIds)) : sql`${businesses.searchDocument} @@ ${tsQuery}`;

  const rank = sql`ts_rank(${businesses.searchDocument}, ${tsQuery})`;
  const fullText = await selectBusinessRecords(db).where(and(textMatch, inCity, servableCondition())).orderBy(desc(rank), asc(businesses.planTier), asc(businesses.name)).limit(params.limit);
  if (fullText.length > 0) return { city, unknownCity: false, hits: fullText.map((record) => ({ ...record, matchedBy: "full_text" as const })) };

  const similarity = sql`similarity(${businesses.name}, ${params.query})`;
  const fuzzy = await selectBusinessRecords(db)
    .where(and(sql`${businesses.name} % ${params.query}`, inCity, servableCondition()))
    .orderBy(desc(similarity), asc(businesses.planTier), asc(businesses.name))
    .limit(params.limit);
  return { city, unknownCity: false, hits: fuzzy.map((record) => ({ ...record, matchedBy: "fuzzy_name" as const })) };
}
