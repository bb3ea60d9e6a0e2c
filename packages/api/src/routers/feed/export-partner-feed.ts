import { EXPORT_RETRY_AFTER_SECONDS, openFeedExport } from "../../services/feed/export";
import { DomainError } from "../../errors";
import { partnerProcedure } from "../../procedures/builders";
import { exportPartnerFeedMeta, ZExportPartnerFeedInput, ZExportPartnerFeedOutput } from "./export-partner-feed.types";

/**
 * GET /api/v2/partner-feed/export: the guards of the paged feed (partner key, kind, quota: one
 * call per export), then the stream the door writes out.
 */
export const exportPartnerFeed = partnerProcedure
  .meta(exportPartnerFeedMeta)
  .input(ZExportPartnerFeedInput)
  .output(ZExportPartnerFeedOutput)
  .query(({ ctx }) => {
    try {
      return openFeedExport(ctx.db, { keyId: ctx.apiKey.id, baseUrl: ctx.publicBaseUrl });
    } catch (error) {
      if (error instanceof DomainError && error.code === "RATE_LIMITED") ctx.setHeader("Retry-After", String(EXPORT_RETRY_AFTER_SECONDS));
      throw error;
    }
  });
