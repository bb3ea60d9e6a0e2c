import { keywordSearch } from "../../services/search/keyword-search";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { searchKeywordMeta, ZSearchKeywordInput, ZSearchKeywordOutput } from "./search-keyword.types";

/** Free text over names, descriptions, services, USPs, taglines, keywords and buyer questions (search_by_keyword). */
export const searchKeyword = anonymousDailyProcedure
  .meta(searchKeywordMeta)
  .input(ZSearchKeywordInput)
  .output(ZSearchKeywordOutput)
  .query(({ ctx, input }) => keywordSearch(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
