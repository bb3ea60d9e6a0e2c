import { getPartnerFeedPage } from "../../services/feed/partner-feed";
import { partnerProcedure } from "../../trpc";
import { getPartnerFeedMeta, ZGetPartnerFeedInput, ZGetPartnerFeedOutput } from "./get-partner-feed.types";

/** GET /api/v2/partner-feed: verified locations as schema.org JSON-LD, paged (partner key). */
export const getPartnerFeed = partnerProcedure
  .meta(getPartnerFeedMeta)
  .input(ZGetPartnerFeedInput)
  .output(ZGetPartnerFeedOutput)
  .query(({ ctx, input }) => getPartnerFeedPage(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
