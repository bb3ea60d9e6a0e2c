import { citiesWithListings } from "../../services/search/category-search";
import { requireResolved, resolvedCategory } from "../../services/search/resolved";
import { resolveCategory } from "../../services/search/search";
import { v2Procedure } from "../../trpc";
import { ZAvailableCitiesInput, ZAvailableCitiesOutput } from "./available-cities.types";

/** Cities that have listings in a category, most listings first (get_available_cities). */
export const availableCities = v2Procedure
  .input(ZAvailableCitiesInput)
  .output(ZAvailableCitiesOutput)
  .query(async ({ ctx, input }) => {
    const category = requireResolved(await resolveCategory(ctx.db, input.category), "category", input.category);
    const cities = await citiesWithListings(ctx.db, category, input.limit);
    return { category: resolvedCategory(category), cities, total: cities.length };
  });
