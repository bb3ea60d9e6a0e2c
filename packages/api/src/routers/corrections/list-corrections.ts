import { listCorrections as list } from "../../services/corrections/correction-decisions";
import { adminProcedure } from "../../procedures/builders";
import { listCorrectionsMeta, ZListCorrectionsInput, ZListCorrectionsOutput } from "./list-corrections.types";

/** GET /api/v2/admin/corrections: the admin's queue. */
export const listCorrections = adminProcedure
  .meta(listCorrectionsMeta)
  .input(ZListCorrectionsInput)
  .output(ZListCorrectionsOutput)
  .query(({ ctx, input }) => list(ctx.db, input));
