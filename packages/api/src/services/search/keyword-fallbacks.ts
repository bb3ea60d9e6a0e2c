import { and, asc, desc, eq, sql } from "drizzle-orm";
import { businessSearch, businesses, rowsOf, type Db } from "@directory/db";
import { selectBusinessRecords } from "../entities/business-lookup";
import { servableCondition } from "../entities/servable";
import { KEYWORD_CANDIDATES, type KeywordSort } from "./disclosures";
import { scopeLexeme, servableSearchRow, type KeywordScope } from "./keyword-ranking";
import type { ListingSource } from "./listing";
import type { QueryReading } from "./query-reading";
import { normalizeTerm } from "./reference-data";
import { RATING_ORDER } from "./rating-order";

/*
 * What a keyword search tries when its words as given and as read match nothing (keyword-search.ts
 * says in which order): a name close to the query, and the most words that still match together.
 */

/** A fuzzy name hit this similar to the query is the business asked for, not a loose guess. */
export const NAME_SIMILARITY = 0.45;

/** Relaxation tries subsets of at most this many words: C(6, 3) = 20 alternatives at worst. */
const MAX_RELAXED_WORDS = 6;

/** Words that say nothing alone: a partial match never keeps them, so "on" cannot stand in for "open on sunday". */
const FUNCTION_WORDS = new Set(["a", "an", "the", "and", "or", "on", "in", "at", "of", "for", "to", "with", "near", "me", "my", "by"]);

/** A word that says something alone: not a function word, longer than two letters. */
export function isMeaningfulWord(word: string): boolean {
  return word.length > 2 && !FUNCTION_WORDS.has(word);
}

/**
 * Whether a name shares a meaningful word with the query (function words aside; a misspelling as
 * close as a name match allows): a looser name match that shares none is no answer to the query
 * ("unicorn groomer" is not the grocery stores whose names share a few letters).
 */
export function sharesMeaningfulWord(name: string, words: string[]): boolean {
  const meaningful = words.filter(isMeaningfulWord);
  const nameWords = normalizeTerm(name).split(" ");
  return meaningful.some((word) => nameWords.some((nameWord) => nameWord === word || trigramSimilarity(nameWord, word) >= NAME_SIMILARITY));
}

/** Business names similar to the query (businesses_name_trgm_idx), in the scope's city or country when it names one. */
export function fuzzyName(db: Db, query: string, scope: KeywordScope, limit: number, sort: KeywordSort): Promise<ListingSource[]> {
  const similarity = sql`similarity(${businesses.name}, ${query})`;
  const inPlace = scope.city ? eq(businesses.cityId, scope.city.id) : scope.country ? eq(businesses.country, scope.country) : undefined;
  return selectBusinessRecords(db)
    .where(and(sql`${businesses.name} % ${query}`, inPlace, servableCondition()))
    .orderBy(...(sort === "rating" ? RATING_ORDER : [desc(similarity), asc(businesses.planTier), asc(businesses.name)]))
    .limit(limit);
}

/** Trigram similarity as pg_trgm computes it (words padded, shared trigrams over all), without a round trip. */
export function trigramSimilarity(a: string, b: string): number {
  const trigrams = (text: string) => {
    const set = new Set<string>();
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const padded = `  ${word} `;
      for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
    }
    return set;
  };
  const [left, right] = [trigrams(a), trigrams(b)];
  const shared = [...left].filter((trigram) => right.has(trigram)).length;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Every way to keep `size` of the words, in order. */
function subsets(words: string[], size: number): string[][] {
  if (size === 0) return [[]];
  if (words.length < size) return [];
  const [first, ...rest] = words;
  return [...subsets(rest, size - 1).map((subset) => [first!, ...subset]), ...subsets(rest, size)];
}

/**
 * The most words that still match together, as few fewer as needed: one query per number of
 * words dropped, each asking for any subset of that size (an OR of ANDs in one GIN lookup) and
 * answering the words the best-ranked of its first candidates holds. The words naming a category
 * stay in every subset: "vegan bakery open sunday" may lose "vegan", never "bakery".
 */
export async function bestWordSubset(db: Db, reading: QueryReading, scope: KeywordScope): Promise<string[] | null> {
  const words = [...new Set(reading.words)].filter((word) => !FUNCTION_WORDS.has(word));
  const required = words.filter((word) => reading.categoryWords.includes(word));
  const optional = words.filter((word) => !required.includes(word)).slice(0, MAX_RELAXED_WORDS);
  if (optional.length === 0 || words.length < 2) return null;
  const lexeme = (word: string) => sql`plainto_tsquery('simple', search_fold(${word}))`;
  const all = (list: string[]) => sql.join(list.map(lexeme), sql` && `);
  const place = scopeLexeme(scope);
  const inCity = scope.city ? sql`and ${businessSearch.cityId} = ${scope.city.id}` : sql``;
  const inPlace = place ? sql`${inCity} and ${businessSearch.document} @@ (quote_literal(${place}))::tsquery` : sql``;
  for (let size = optional.length - 1; size >= (required.length > 0 ? 0 : 1); size--) {
    const alternatives = subsets(optional, size).map((subset) => sql`(${all([...required, ...subset])})`);
    const matching = sql.join(alternatives, sql` || `);
    const hits = sql.join(
      words.map((word) => sql`${businessSearch.document} @@ ${lexeme(word)}`),
      sql`, `,
    );
    const found = await db.execute(sql`select hits from (
        select array[${hits}] as hits, ts_rank(${businessSearch.document}, ${matching}) as rank, ${businessSearch.businessId} as id
        from ${businessSearch}
        where ${businessSearch.document} @@ (${matching}) and ${servableSearchRow} ${inPlace}
        limit ${sql.raw(String(KEYWORD_CANDIDATES))}
      ) candidates order by rank desc, id limit 1`);
    const row = rowsOf<{ hits: boolean[] }>(found)[0];
    if (row) return words.filter((_, index) => row.hits[index]);
  }
  return null;
}
