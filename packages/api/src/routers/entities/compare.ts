import { compareBusinesses } from "../../services/entities/compare";
import { v2Procedure } from "../../trpc";
import { ZCompareInput, ZCompareOutput } from "./compare.types";

/** Two businesses side by side (compare_businesses). */
export const compare = v2Procedure
  .input(ZCompareInput)
  .output(ZCompareOutput)
  .query(({ ctx, input }) => compareBusinesses(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
