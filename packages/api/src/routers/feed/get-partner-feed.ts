import { getPartnerFeedPage } from "../../services/feed/partner-feed";
import { partnerProcedure } from "../../trpc";
import { getPartnerFeedMeta, ZGetPartnerFeedInput, ZGetPartnerFeedOutput } from "./get-partner-feed.types";

export const getPartnerFeed = partnerProcedure
  .meta(getPartnerFeedMeta)
  .input(ZGetPartnerFeedInput)
  .output(ZGetPartnerFeedOutput)
  .query(({ ctx, input }) => getPartnerFeedPage(ctx.db, ctx.publicBaseUrl, input));
