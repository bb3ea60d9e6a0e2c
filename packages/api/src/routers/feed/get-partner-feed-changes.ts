import { feedChangesText, getFeedChanges } from "../../services/feed/changes";
import { partnerProcedure } from "../../procedures/builders";
import { getPartnerFeedChangesMeta, ZGetPartnerFeedChangesInput, ZGetPartnerFeedChangesOutput } from "./get-partner-feed-changes.types";

/** The change feed's guards (partner key, kind, quota) and input, shared by its two bodies below. */
const partnerFeedChangesQuery = partnerProcedure.input(ZGetPartnerFeedChangesInput);

/** GET /api/v2/partner-feed/changes: the partner feed's changes after a position (partner key); tRPC reads it, OpenAPI documents it. */
export const getPartnerFeedChanges = partnerFeedChangesQuery
  .meta(getPartnerFeedChangesMeta)
  .output(ZGetPartnerFeedChangesOutput)
  .query(({ ctx, input }) => getFeedChanges(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));

/** The same page as the JSON text the REST door writes (see rest-bodies.ts). */
export const getPartnerFeedChangesText = partnerFeedChangesQuery.query(({ ctx, input }) => feedChangesText(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
