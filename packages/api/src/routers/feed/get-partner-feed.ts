import { getPartnerFeedPage, partnerFeedPageText } from "../../services/feed/partner-feed";
import { partnerProcedure } from "../../procedures/builders";
import { getPartnerFeedMeta, ZGetPartnerFeedInput, ZGetPartnerFeedOutput } from "./get-partner-feed.types";

/** The paged feed's guards (partner key, kind, quota) and input, shared by its two bodies below. */
const partnerFeedQuery = partnerProcedure.input(ZGetPartnerFeedInput);

/** GET /api/v2/partner-feed: verified locations as schema.org JSON-LD, paged (partner key); tRPC reads it, OpenAPI documents it. */
export const getPartnerFeed = partnerFeedQuery
  .meta(getPartnerFeedMeta)
  .output(ZGetPartnerFeedOutput)
  .query(({ ctx, input }) => getPartnerFeedPage(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));

/** The same page as the JSON text the REST door writes (see rest-bodies.ts). */
export const getPartnerFeedText = partnerFeedQuery.query(({ ctx, input }) => partnerFeedPageText(ctx.db, { ...input, baseUrl: ctx.publicBaseUrl }));
