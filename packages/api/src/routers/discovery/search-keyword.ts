import { KEYWORD_RANKING, searchByKeyword } from "../../services/search/keyword-search";
import { toListing } from "../../services/search/listing";
import { requireResolved, resolvedCity } from "../../services/search/resolved";
import { v2Procedure } from "../../trpc";
import { ZSearchKeywordInput, ZSearchKeywordOutput } from "./search-keyword.types";

/** Free text over names, descriptions, services, USPs, taglines, keywords and buyer questions (search_by_keyword). */
export const searchKeyword = v2Procedure
  .input(ZSearchKeywordInput)
  .output(ZSearchKeywordOutput)
  .query(async ({ ctx, input }) => {
    const result = await searchByKeyword(ctx.db, input);
    if (result.unknownCity) requireResolved(null, "city", input.city);
    return {
      query: input.query,
      city: result.city ? resolvedCity(result.city) : null,
      businesses: result.hits.map((hit) => ({ ...toListing(hit, ctx.publicBaseUrl), matchedBy: hit.matchedBy })),
      total: result.hits.length,
      rankingModel: KEYWORD_RANKING,
    };
  });
