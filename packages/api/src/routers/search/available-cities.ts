import { availableCities as citiesOf } from "../../services/search/category-search";
import { v2Procedure } from "../../trpc";
import { availableCitiesMeta, ZAvailableCitiesInput, ZAvailableCitiesOutput } from "./available-cities.types";

/** Cities that have listings in a category, most listings first (get_available_cities). */
export const availableCities = v2Procedure
  .meta(availableCitiesMeta)
  .input(ZAvailableCitiesInput)
  .output(ZAvailableCitiesOutput)
  .query(({ ctx, input }) => citiesOf(ctx.db, input));
