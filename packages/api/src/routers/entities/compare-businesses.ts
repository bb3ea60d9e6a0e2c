import { compareBusinesses as sideBySide } from "../../services/entities/compare";
import { v2Procedure } from "../../trpc";
import { compareBusinessesMeta, ZCompareInput, ZCompareOutput } from "./compare-businesses.types";

/** Two businesses side by side (compare_businesses). */
export const compareBusinesses = v2Procedure
  .meta(compareBusinessesMeta)
  .input(ZCompareInput)
  .output(ZCompareOutput)
  .query(({ ctx, input }) => sideBySide(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
