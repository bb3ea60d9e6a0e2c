import { replicaReads } from "../../procedures/read-routing";
import { alternativesTo } from "../../services/pages/pages";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { ZAlternativesInput, ZAlternativesOutput } from "./alternatives.types";

/** Same category, same city: what a 404 or 410 profile page offers instead. 404 for an unknown slug. */
export const alternatives = anonymousDailyProcedure
  .use(replicaReads)
  .input(ZAlternativesInput)
  .output(ZAlternativesOutput)
  .query(({ ctx, input }) => alternativesTo(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
