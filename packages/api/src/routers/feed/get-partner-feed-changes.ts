import { replicaReads } from "../../procedures/read-routing";
import { feedChangesText } from "../../services/feed/changes";
import { partnerProcedure } from "../../procedures/builders";
import { answerJsonText, jsonTextOutput } from "../../procedures/json-text-output";
import { getPartnerFeedChangesMeta, ZGetPartnerFeedChangesInput, ZGetPartnerFeedChangesOutput } from "./get-partner-feed-changes.types";

/** GET /api/v2/partner-feed/changes: the partner feed's changes after a position (partner key); its page is JSON text (procedures/json-text-output.ts). */
export const getPartnerFeedChanges = partnerProcedure
  .use(replicaReads)
  .meta(getPartnerFeedChangesMeta)
  .input(ZGetPartnerFeedChangesInput)
  .output(jsonTextOutput(ZGetPartnerFeedChangesOutput))
  .query(async ({ ctx, input }) => answerJsonText(ctx, await feedChangesText(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }, ctx.db)));
