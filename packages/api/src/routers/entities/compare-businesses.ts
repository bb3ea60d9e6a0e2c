import { replicaReads } from "../../procedures/read-routing";
import { compareBusinesses as sideBySide } from "../../services/entities/compare";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { compareBusinessesMeta, ZCompareInput, ZCompareOutput } from "./compare-businesses.types";

/** Two businesses side by side (compare_businesses). */
export const compareBusinesses = anonymousDailyProcedure
  .use(replicaReads)
  .meta(compareBusinessesMeta)
  .input(ZCompareInput)
  .output(ZCompareOutput)
  .query(({ ctx, input }) => sideBySide(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
