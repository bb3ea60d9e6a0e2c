import { replicaReads } from "../../procedures/read-routing";
import { availableCities as citiesOf } from "../../services/search/available-cities";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { availableCitiesMeta, ZAvailableCitiesInput, ZAvailableCitiesOutput } from "./available-cities.types";

/** Cities that have listings in a category, most listings first (get_available_cities). */
export const availableCities = anonymousDailyProcedure
  .use(replicaReads)
  .meta(availableCitiesMeta)
  .input(ZAvailableCitiesInput)
  .output(ZAvailableCitiesOutput)
  .query(({ ctx, input }) => citiesOf(ctx.readDb, input));
