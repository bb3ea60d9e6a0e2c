import { replicaReads } from "../../procedures/read-routing";
import { keywordSearch } from "../../services/search/keyword-search";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { searchKeywordMeta, ZSearchKeywordInput, ZSearchKeywordOutput } from "./search-keyword.types";

/** Free text over names, descriptions, services, USPs, taglines, keywords and buyer questions (search_by_keyword). */
export const searchKeyword = anonymousDailyProcedure
  .use(replicaReads)
  .meta(searchKeywordMeta)
  .input(ZSearchKeywordInput)
  .output(ZSearchKeywordOutput)
  .query(({ ctx, input }) => keywordSearch(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
