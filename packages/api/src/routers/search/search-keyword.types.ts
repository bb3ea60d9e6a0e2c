import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZListing } from "./listing.types";
import { whereWhenInput } from "../../services/where-when/where-when-params";
import {
  COUNTRY_400,
  COUNTRY_DESCRIPTION,
  ZCityParam,
  ZCountryParam,
  ZCursorParam,
  ZKeywordSort,
  ZOpenFilterCount,
  ZPageAttributions,
  ZPaging,
  ZResolvedCategory,
  ZResolvedCity,
  ZSearchHint,
  ZToolLimit,
} from "./search.types";
import { WHERE_WHEN_400, WHERE_WHEN_DESCRIPTION } from "./where-when.types";

/** How long a keyword query may be, after trimming: the pages' form, MCP's prompts and completions read it from here. */
export const KEYWORD_QUERY_LENGTH = { min: 2, max: 200 } as const;

export const ZSearchKeywordInput = z.object({
  query: z
    .string()
    .trim()
    .min(KEYWORD_QUERY_LENGTH.min)
    .max(KEYWORD_QUERY_LENGTH.max)
    .describe('e.g. "root canal emergency", "dentist in bombay" or a name; typos tolerated'),
  city: ZCityParam.optional().describe("Only this city"),
  country: ZCountryParam,
  limit: ZToolLimit,
  sort: ZKeywordSort,
  cursor: ZCursorParam,
  ...whereWhenInput,
});

export const ZSearchKeywordOutput = z.object({
  query: z.string(),
  city: ZResolvedCity.nullable(),
  cityFromWords: z.string().nullable().describe("Query words read as the city"),
  country: z.string().nullable().describe("Country searched (ISO code), from country or the words"),
  countryFromWords: z.string().nullable().describe("Query words read as the country"),
  category: ZResolvedCategory.nullable().describe("Category recognised in the words"),
  matchedBy: z.enum(["all_words", "corrected_words", "some_words", "category", "fuzzy_name", "nothing"]),
  wordsUsed: z.array(z.string()),
  wordsDropped: z.array(z.string()).describe("Words left out to find a partial match"),
  corrections: z.array(z.object({ from: z.string(), to: z.string() })),
  ...ZSearchHint,
  businesses: z.array(ZListing.extend({ matchedBy: z.enum(["full_text", "fuzzy_name", "category"]) })),
  total: z.number().int(),
  ...ZPaging,
  ...ZOpenFilterCount,
  ...ZPageAttributions,
  rankingModel: z.string().describe("The order these results are in, in plain words"),
});

export type TSearchKeywordInput = z.input<typeof ZSearchKeywordInput>;
export type TSearchKeywordOutput = z.infer<typeof ZSearchKeywordOutput>;

export const searchKeywordMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/keyword-search",
    operationId: "searchKeyword",
    tags: ["search"],
    summary: "Free-text search over names, descriptions, services, USPs, taglines, keywords and buyer questions",
    description:
      "The REST door of the MCP tool search_by_keyword. Typos are tolerated; a city, country or category inside the words is recognised (e.g. dentist in bombay, hotel liechtenstein), and a category named with a place is looked for in that place only, never answered by a business merely named like the place; when all words together match nothing, the best partial match that keeps a word of the query answers and wordsDropped names the words left out; hint says in a sentence what was done, or with nothing matched, what to try next. city narrows to one city. Ordered by relevance, or with sort=rating best-rated first. Pages with a cursor: pass nextCursor back as cursor until it is null; totalMatches counts at most the 500 best candidates. Accents are ignored (hotel finds Hôtel). " +
      `${COUNTRY_DESCRIPTION} ${WHERE_WHEN_DESCRIPTION} The filters apply to the ranked candidates, so they too count at most 500.`,
    errorResponses: {
      400: `Invalid parameter: query shorter than ${KEYWORD_QUERY_LENGTH.min} or longer than ${KEYWORD_QUERY_LENGTH.max} characters, limit outside 1 to 10, sort other than relevance, rating or distance, or a cursor that is not an unchanged nextCursor of the same search, ${COUNTRY_400}; ${WHERE_WHEN_400}`,
      404: "Unknown city: the body names it and the closest valid values (suggestions)",
    },
  },
};
