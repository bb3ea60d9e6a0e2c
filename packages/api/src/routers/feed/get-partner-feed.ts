import { replicaReads } from "../../procedures/read-routing";
import { partnerFeedPageText } from "../../services/feed/partner-feed";
import { partnerProcedure } from "../../procedures/builders";
import { answerJsonText, jsonTextOutput } from "../../procedures/json-text-output";
import { getPartnerFeedMeta, ZGetPartnerFeedInput, ZGetPartnerFeedOutput } from "./get-partner-feed.types";

/** GET /api/v2/partner-feed: verified locations as schema.org JSON-LD, paged (partner key); its page is JSON text (procedures/json-text-output.ts). */
export const getPartnerFeed = partnerProcedure
  .use(replicaReads)
  .meta(getPartnerFeedMeta)
  .input(ZGetPartnerFeedInput)
  .output(jsonTextOutput(ZGetPartnerFeedOutput))
  .query(async ({ ctx, input }) => answerJsonText(ctx, await partnerFeedPageText(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }, ctx.db)));
