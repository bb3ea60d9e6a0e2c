import { keywordSearch } from "../../services/search/keyword-search";
import { v2Procedure } from "../../trpc";
import { searchKeywordMeta, ZSearchKeywordInput, ZSearchKeywordOutput } from "./search-keyword.types";

/** Free text over names, descriptions, services, USPs, taglines, keywords and buyer questions (search_by_keyword). */
export const searchKeyword = v2Procedure
  .meta(searchKeywordMeta)
  .input(ZSearchKeywordInput)
  .output(ZSearchKeywordOutput)
  .query(({ ctx, input }) => keywordSearch(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
