import { replicaReads } from "../../procedures/read-routing";
import { openFeedExport } from "../../services/feed/export";
import { EXPORT_RETRY_AFTER_SECONDS } from "../../services/feed/export-slots";
import { DomainError } from "../../errors";
import { partnerProcedure } from "../../procedures/builders";
import { exportPartnerFeedMeta, ZExportPartnerFeedInput, ZExportPartnerFeedOutput } from "./export-partner-feed.types";

/**
 * GET /api/v2/partner-feed/export: the guards of the paged feed (partner key, kind, quota: one
 * call per export), then the stream the door writes out. Served by its REST door only (restRouter
 * in root.ts): no tRPC door charges, streams or holds a slot for it.
 */
export const exportPartnerFeed = partnerProcedure
  .use(replicaReads)
  .meta(exportPartnerFeedMeta)
  .input(ZExportPartnerFeedInput)
  .output(ZExportPartnerFeedOutput)
  .query(({ ctx }) => {
    try {
      return openFeedExport(ctx.readDb, { partnerId: ctx.apiKey.id, baseUrl: ctx.publicBaseUrl, slots: ctx.feedExports });
    } catch (error) {
      if (error instanceof DomainError && error.code === "RATE_LIMITED") ctx.setHeader("Retry-After", String(EXPORT_RETRY_AFTER_SECONDS));
      throw error;
    }
  });
