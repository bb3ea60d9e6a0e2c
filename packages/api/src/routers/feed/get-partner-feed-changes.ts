import { getFeedChanges } from "../../services/feed/changes";
import { partnerProcedure } from "../../trpc";
import { getPartnerFeedChangesMeta, ZGetPartnerFeedChangesInput, ZGetPartnerFeedChangesOutput } from "./get-partner-feed-changes.types";

/** GET /api/v2/partner-feed/changes: the partner feed's changes after a position (partner key). */
export const getPartnerFeedChanges = partnerProcedure
  .meta(getPartnerFeedChangesMeta)
  .input(ZGetPartnerFeedChangesInput)
  .output(ZGetPartnerFeedChangesOutput)
  .query(({ ctx, input }) => getFeedChanges(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
