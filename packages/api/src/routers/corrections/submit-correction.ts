import { submitCorrection as submit } from "../../services/corrections/corrections";
import { correctionSubmissionProcedure } from "../../procedures/builders";
import { correctionSubmitterOf } from "../../procedures/limits";
import { submitCorrectionMeta, ZSubmitCorrectionOutput } from "./submit-correction.types";

/** POST /api/v2/corrections (MCP suggest_correction): a pending proposal, or with dryRun only its validation. */
export const submitCorrection = correctionSubmissionProcedure
  .meta(submitCorrectionMeta)
  .output(ZSubmitCorrectionOutput)
  .mutation(({ ctx, input }) => submit(ctx.db, { ...input, submitter: correctionSubmitterOf(ctx) }));
