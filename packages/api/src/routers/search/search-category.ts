import { rankedListings } from "../../services/search/category-search";
import { v2Procedure } from "../../trpc";
import { searchCategoryMeta, ZSearchCategoryInput, ZSearchCategoryOutput } from "./search-category.types";

/** A category with an optional city, ranked by plan tier then internal score (the search_businesses tool). */
export const searchCategory = v2Procedure
  .meta(searchCategoryMeta)
  .input(ZSearchCategoryInput)
  .output(ZSearchCategoryOutput)
  .query(({ ctx, input }) => rankedListings(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
