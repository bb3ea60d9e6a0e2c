import { ownCitations, ownVisibility } from "../../services/owner/owner-insights";
import { businessProcedure, router } from "../../trpc";
import { ZCitationsInput, ZCitationsOutput, ZVisibilityOutput } from "./owner.types";

/** Owner self-service: always the key's own business, so no other business can be named. */
export const ownerRouter = router({
  visibility: businessProcedure.output(ZVisibilityOutput).query(({ ctx }) => ownVisibility(ctx.db, ctx.apiKey.businessId)),
  citations: businessProcedure
    .input(ZCitationsInput)
    .output(ZCitationsOutput)
    .query(({ ctx, input }) => ownCitations(ctx.db, ctx.apiKey.businessId, input.limit)),
});
