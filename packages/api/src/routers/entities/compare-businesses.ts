import { compareBusinesses as sideBySide } from "../../services/entities/compare";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { compareBusinessesMeta, ZCompareInput, ZCompareOutput } from "./compare-businesses.types";

/** Two businesses side by side (compare_businesses). */
export const compareBusinesses = anonymousDailyProcedure
  .meta(compareBusinessesMeta)
  .input(ZCompareInput)
  .output(ZCompareOutput)
  .query(({ ctx, input }) => sideBySide(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
