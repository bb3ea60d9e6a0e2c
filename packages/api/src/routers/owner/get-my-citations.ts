import { ownCitations } from "../../services/owner/owner-insights";
import { businessProcedure } from "../../procedures/builders";
import { CITATION_METHOD } from "../../services/citations/method";
import { citationEnginesStatus } from "../../services/citations/owner-recheck";
import { getMyCitationsMeta, ZCitationsInput, ZCitationsOutput } from "./get-my-citations.types";

/** The key's own business: recent AI-platform checks, newest first. */
export const getMyCitations = businessProcedure
  .meta(getMyCitationsMeta)
  .input(ZCitationsInput)
  .output(ZCitationsOutput)
  .query(async ({ ctx, input }) => ({
    ...(await ownCitations(ctx.db, { limit: input.limit, businessId: ctx.business.id })),
    engines: citationEnginesStatus(ctx.citationEngines),
    method: CITATION_METHOD,
  }));
