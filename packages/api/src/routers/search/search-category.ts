import { replicaReads } from "../../procedures/read-routing";
import { rankedListings } from "../../services/search/category-search";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { searchCategoryMeta, ZSearchCategoryInput, ZSearchCategoryOutput } from "./search-category.types";

/** A category with an optional city, ranked by plan tier then internal score (the search_businesses tool). */
export const searchCategory = anonymousDailyProcedure
  .use(replicaReads)
  .meta(searchCategoryMeta)
  .input(ZSearchCategoryInput)
  .output(ZSearchCategoryOutput)
  .query(({ ctx, input }) => rankedListings(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
