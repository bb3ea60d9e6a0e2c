import { rejectCorrection as reject } from "../../services/corrections/correction-decisions";
import { adminProcedure } from "../../procedures/builders";
import { rejectCorrectionMeta, ZRejectCorrectionInput, ZRejectCorrectionOutput } from "./reject-correction.types";

/** POST /api/v2/admin/corrections/{id}/reject. */
export const rejectCorrection = adminProcedure
  .meta(rejectCorrectionMeta)
  .input(ZRejectCorrectionInput)
  .output(ZRejectCorrectionOutput)
  .mutation(({ ctx, input }) => reject(ctx.db, { correctionId: input.id }));
