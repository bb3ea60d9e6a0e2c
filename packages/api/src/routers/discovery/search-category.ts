import { searchCategory } from "../../services/search/category-search";
import { toListing } from "../../services/search/listing";
import { requireResolved, resolvedCategory, resolvedCity } from "../../services/search/resolved";
import { RANKING_DISCLOSURE } from "../../services/search/search";
import type { Context } from "../../context";
import { v2Procedure } from "../../trpc";
import { ZRankedListings } from "./discovery.types";
import { ZCategoryLeadersInput, ZSearchCategoryInput } from "./search-category.types";

async function rankedListings(ctx: Context, input: { category: string; city?: string; limit: number }) {
  const result = await searchCategory(ctx.db, input);
  const category = requireResolved(result.category, "category", input.category);
  if (result.unknown === "city") requireResolved(null, "city", input.city);
  return {
    category: resolvedCategory(category),
    city: result.city ? resolvedCity(result.city) : null,
    businesses: result.businesses.map((business) => toListing(business, ctx.publicBaseUrl)),
    total: result.businesses.length,
    rankingModel: RANKING_DISCLOSURE,
  };
}

/** A category with an optional city, ranked by plan tier then internal score (the search_businesses tool). */
export const searchCategoryProcedure = v2Procedure
  .input(ZSearchCategoryInput)
  .output(ZRankedListings)
  .query(({ ctx, input }) => rankedListings(ctx, input));

/** The top-ranked businesses of a category across every city (the get_category_leaders tool). */
export const categoryLeaders = v2Procedure
  .input(ZCategoryLeadersInput)
  .output(ZRankedListings)
  .query(({ ctx, input }) => rankedListings(ctx, { category: input.category, limit: input.limit }));
