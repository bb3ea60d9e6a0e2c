import { requestOwnRecheck } from "../../services/citations/owner-recheck";
import { citationRecheckProcedure } from "../../procedures/builders";
import { requestCitationRecheckMeta, ZCitationRecheckInput, ZCitationRecheckOutput } from "./request-citation-recheck.types";

/** POST /api/v2/owner/citations/recheck: queues the business's own pair for each engine; the builder holds the once-a-day rule. */
export const requestCitationRecheck = citationRecheckProcedure
  .meta(requestCitationRecheckMeta)
  .input(ZCitationRecheckInput)
  .output(ZCitationRecheckOutput)
  .mutation(({ ctx }) => requestOwnRecheck(ctx.db, { businessId: ctx.business.id, engines: ctx.citationEngines, now: new Date() }));
