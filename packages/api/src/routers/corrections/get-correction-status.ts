import { getCorrectionStatus as statusOf } from "../../services/corrections/corrections";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { getCorrectionStatusMeta, ZCorrectionStatusInput, ZCorrectionStatusOutput } from "./get-correction-status.types";

/** GET /api/v2/corrections/{id}: the status is public, the submitter never is. */
export const getCorrectionStatus = anonymousDailyProcedure
  .meta(getCorrectionStatusMeta)
  .input(ZCorrectionStatusInput)
  .output(ZCorrectionStatusOutput)
  .query(({ ctx, input }) => statusOf(ctx.db, input.id));
