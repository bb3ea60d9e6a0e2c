import { ownCitations } from "../../services/owner/owner-insights";
import { businessProcedure } from "../../procedures/builders";
import { getMyCitationsMeta, ZCitationsInput, ZCitationsOutput } from "./get-my-citations.types";

/** The key's own business: recent AI-platform checks, newest first. */
export const getMyCitations = businessProcedure
  .meta(getMyCitationsMeta)
  .input(ZCitationsInput)
  .output(ZCitationsOutput)
  .query(({ ctx, input }) => ownCitations(ctx.db, { limit: input.limit, businessId: ctx.business.id }));
