import { rankedListings } from "../../services/search/category-search";
import { v2Procedure } from "../../trpc";
import { ZSearchCategoryInput, ZSearchCategoryOutput } from "./search-category.types";

/** A category with an optional city, ranked by plan tier then internal score (the search_businesses tool). */
export const searchCategory = v2Procedure
  .input(ZSearchCategoryInput)
  .output(ZSearchCategoryOutput)
  .query(({ ctx, input }) => rankedListings(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
