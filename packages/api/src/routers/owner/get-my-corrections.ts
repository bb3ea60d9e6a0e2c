import { listOwnCorrections } from "../../services/corrections/corrections";
import { businessProcedure } from "../../procedures/builders";
import { getMyCorrectionsMeta, ZMyCorrectionsInput, ZMyCorrectionsOutput } from "./get-my-corrections.types";

/** GET /api/v2/owner/corrections: always the key's own business. */
export const getMyCorrections = businessProcedure
  .meta(getMyCorrectionsMeta)
  .input(ZMyCorrectionsInput)
  .output(ZMyCorrectionsOutput)
  .query(({ ctx, input }) => listOwnCorrections(ctx.db, { businessId: ctx.business.id, limit: input?.limit }));
