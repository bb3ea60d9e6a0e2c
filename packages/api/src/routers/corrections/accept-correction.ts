import { acceptCorrection as accept } from "../../services/corrections/correction-decisions";
import { adminProcedure } from "../../procedures/builders";
import { acceptCorrectionMeta, ZAcceptCorrectionInput, ZAcceptCorrectionOutput } from "./accept-correction.types";

/** POST /api/v2/admin/corrections/{id}/accept. */
export const acceptCorrection = adminProcedure
  .meta(acceptCorrectionMeta)
  .input(ZAcceptCorrectionInput)
  .output(ZAcceptCorrectionOutput)
  .mutation(({ ctx, input }) => accept(ctx.db, { correctionId: input.id }));
