import { z } from "zod";
import { ZAttributions } from "../entities/entity-profile.types";
import type { DirectoryMeta } from "../../procedures/meta";
import { CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT, CHANGES_RETENTION_DAYS } from "../../services/feed/changes";
import { ZFeedLocation } from "./get-partner-feed.types";

export const ZGetPartnerFeedChangesInput = z.object({
  after: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0)
    .describe(`Position to continue after: an export's last-line "after", or the previous page's nextAfter (valid ${CHANGES_RETENTION_DAYS} days)`),
  limit: z
    .number()
    .int()
    .min(1)
    .max(CHANGES_MAX_LIMIT)
    .default(CHANGES_DEFAULT_LIMIT)
    .describe(`Changes per page, default ${CHANGES_DEFAULT_LIMIT}, maximum ${CHANGES_MAX_LIMIT} (more is a 400, not a clamp)`),
});

export const REMOVE_REASONS = ["decommissioned", "subscription_expired", "no_longer_verified", "removed_from_source", "merged", "closed"] as const;

export const ZFeedChange = z.object({
  seq: z.number().int().describe("Position of this change; strictly increasing in commit order"),
  action: z.enum(["upsert", "remove"]),
  id: z.string().describe("The business id (a location's identifier)"),
  changedAt: z.string(),
  reason: z.enum(REMOVE_REASONS).optional().describe("Why a location left the feed (remove only)"),
  mergedInto: z.string().optional().describe("The surviving business id (reason merged only)"),
  location: ZFeedLocation.optional().describe("The full location after the change (upsert only)"),
});

export const ZGetPartnerFeedChangesOutput = z.object({
  changes: z.array(ZFeedChange),
  nextAfter: z.number().int().describe("Pass as after for the next page (also on an empty page)"),
  hasMore: z.boolean().describe("More changes are waiting after nextAfter"),
  attributions: ZAttributions.describe("Licence notices owed for this page's locations (OpenStreetMap's ODbL line when any came from it)"),
});

export type TGetPartnerFeedChangesInput = z.input<typeof ZGetPartnerFeedChangesInput>;
export type TGetPartnerFeedChangesOutput = z.infer<typeof ZGetPartnerFeedChangesOutput>;

export const getPartnerFeedChangesMeta: DirectoryMeta = {
  nextPageLink: true,
  openapi: {
    method: "GET",
    path: "/api/v2/partner-feed/changes",
    operationId: "getPartnerFeedChanges",
    tags: ["partners"],
    summary: "Changes to the partner feed after a position: upserts with the location, removes with a reason (partner key required)",
    description:
      "Take an export (GET /api/v2/partner-feed/export), then follow the changes from the position on its last line: nothing is lost or doubled. " +
      "Every change is its own entry (no compaction), in commit order. A subscription that ends by time alone appears as a remove subscription_expired within a minute.",
    protect: true,
    errorResponses: {
      400: `Invalid parameter: limit outside 1 to ${CHANGES_MAX_LIMIT}, or after not a position this feed has given`,
      410: `The position is older than ${CHANGES_RETENTION_DAYS} days: take a fresh export`,
    },
  },
};
