/**
 * What search tells its callers about how it ranks and scores, in one drizzle-free module: the
 * search services put these texts in their answers, and every door that describes the directory to
 * agents (the discovery manifest, llms.txt, the plugin manifest, the stdio MCP server's
 * instructions) quotes them from agent-facts.ts instead of restating them.
 */

/** Score contract 2.1-phase0 (spec section 9). */
export const SCORE_CONTRACT_VERSION = "2.1-phase0";
/**
 * The value every listing's own `rankingModel` field carries (score contract 2.1): it names the model
 * of the scores the listing shows (directoryCompletenessScore, plan-neutral), not the order of the
 * results. The order is stated once per response, by the envelope's disclosure (below).
 */
export const RANKING_MODEL = "plan-neutral-directory-completeness" as const;
export const LISTING_RANKING_MODEL_MEANING = "The model of directoryCompletenessScore (score contract 2.1), not the order of results";

/**
 * The orders a search can be asked for (`sort`). Each tool's default is its own spec order, named for
 * what it is: the category search's paid-tier ranking, the listicle's completeness, keyword relevance.
 * `rating` is the same everywhere: best-rated first, no rating last, then most reviews, then name.
 */
export const CATEGORY_SORTS = ["ranking", "rating"] as const;
export const LISTICLE_SORTS = ["completeness", "rating"] as const;
export const KEYWORD_SORTS = ["relevance", "rating"] as const;
export type CategorySort = (typeof CATEGORY_SORTS)[number];
export type ListicleSort = (typeof LISTICLE_SORTS)[number];
export type KeywordSort = (typeof KEYWORD_SORTS)[number];

const RATING_WORDS = "by rating (best first; businesses without a rating last), then by number of reviews, then by name";
export const COMPLETENESS_LABEL =
  "Directory-owned profile completeness metric (0-100): the share of profile fields that are filled in. " +
  "It is not a ranking factor of any AI platform and not a recommendation; plan contribution is 0.";

/** Disclosed with every search result: the order is paid tier first, and says so (RANKING_ORDER in ranking.ts). */
export const RANKING_DISCLOSURE =
  "Ordered by plan tier (premium, pro, basic, free), then by an internal visibility score within a tier, then by name. " +
  "Paid tiers are placed first; the directoryCompletenessScore shown is not what orders results.";

/** Disclosed instead of RANKING_DISCLOSURE when a category search is asked for sort=rating (rating-order.ts). */
export const RATING_DISCLOSURE = `Ordered ${RATING_WORDS} (sort=rating). Plan tier plays no part in this order.`;

export const LISTICLE_DISCLOSURE =
  "Ordered by directoryCompletenessScore (how complete each profile is), then by name. Not a paid placement: plan tier plays no part in this order.";

/**
 * Ranking reads every candidate's row; bounding the set keeps a word shared by 18,000 businesses
 * of a 1M world at ~15 ms instead of ~120 ms (a city or a rarer word rarely reaches the bound).
 * 500 rather than 1,000: half the heap reads and ts_rank calls took the bench's keyword mix at 4
 * connections from 282 to 325 req/s (p95 29 -> 25 ms), with the same categories on top.
 */
export const KEYWORD_CANDIDATES = 500;

export const KEYWORD_RANKING =
  "Ordered by text relevance (PostgreSQL full-text rank; a word in the name weighs most, then services and keywords, then USP and tagline, then description; " +
  "businesses whose buyer questions match are included), then plan tier, then name. " +
  `When more than ${KEYWORD_CANDIDATES} businesses match, ${KEYWORD_CANDIDATES} of them are ranked (the first the text index yields, not the best by any score): add a city or more words to narrow a broad query. ` +
  'When the words together match nothing, the query is read again: a city inside it becomes the city ("dentist in bombay"), misspelt words are corrected to the nearest word of a category name or synonym ("dentst" finds dentists); ' +
  "then names are matched by trigram similarity; then the most words that match together are used (wordsDropped names the rest), then a category named in the words; matchedBy says which.";

/** Keyword search with sort=rating: the same matches, in rating order instead of relevance. */
export const KEYWORD_RATING =
  `Ordered ${RATING_WORDS} (sort=rating), among the businesses that match the words; plan tier plays no part in this order. ` +
  `When more than ${KEYWORD_CANDIDATES} businesses match, ${KEYWORD_CANDIDATES} of them are ordered (the first the text index yields, not the best-rated of all): add a city or more words to narrow a broad query. ` +
  "A miss is read, corrected and relaxed as in the default order (matchedBy says how); names matched by trigram similarity, or a category named in the words, are ordered by rating too.";

export const LISTICLE_RATING_DISCLOSURE = `Ordered ${RATING_WORDS} (sort=rating). Not a paid placement: plan tier plays no part in this order.`;

/**
 * sort=distance, on every search that takes `near`: nearest first. Each search breaks ties of
 * equal distance by its own default order, named in `ties`.
 */
export const DISTANCE_SORT = "distance" as const;
export function distanceDisclosure(ties: string): string {
  return `Ordered by great-circle distance from near, nearest first (sort=distance); businesses at the same distance ${ties}.`;
}
