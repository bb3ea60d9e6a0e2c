import { z } from "zod";
import { ZAttributions } from "../entities/entity-profile.types";
import type { DirectoryMeta } from "../../procedures/meta";
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from "../../services/feed/partner-feed";

export const ZGetPartnerFeedInput = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(FEED_MAX_LIMIT)
    .default(FEED_DEFAULT_LIMIT)
    .describe(`Page size, default ${FEED_DEFAULT_LIMIT}, maximum ${FEED_MAX_LIMIT} (more is a 400, not a clamp)`),
  offset: z.number().int().min(0).max(10_000_000).default(0).describe("Pagination offset, default 0; prefer cursor for deep paging"),
  category: z.string().trim().min(1).max(100).optional().describe("Case-insensitive substring of a category slug or name"),
  updatedSince: z
    .string()
    .trim()
    .max(40)
    .meta({ format: "date-time", description: "ISO 8601 date-time (a date alone, 2026-01-31, is accepted too); only locations updated on or after it" })
    .optional(),
  cursor: z.string().trim().min(1).max(500).optional().describe("nextCursor from the previous page: keyset paging, fast at any depth"),
});

/**
 * A schema.org LocalBusiness (subtype) with PostalAddress, GeoCoordinates and opening hours. Served
 * from the stored text (services/feed/feed-documents.ts), which was cleaned as owner text and
 * checked against this contract when it was written; reads do not clean it again.
 */
export const ZFeedLocation = z
  .object({
    "@context": z.literal("https://schema.org"),
    "@type": z.string(),
    identifier: z.string().describe("Immutable business id"),
    name: z.string(),
    telephone: z.string().optional(),
    url: z.string().optional(),
    address: z.object({ "@type": z.literal("PostalAddress") }).passthrough(),
    dateModified: z.string(),
    additionalProperty: z
      .array(z.object({ "@type": z.literal("PropertyValue"), propertyID: z.string(), value: z.string() }))
      .optional()
      .describe(
        "What schema.org has no property for: operatingStatus (temporarily_closed) and reopensOn, lastVerifiedAt (a person last vouched for a fact), firstFactStaleAt (the first current fact's staleAfter)",
      ),
  })
  .passthrough();

export const ZGetPartnerFeedOutput = z.object({
  total: z.number().int().describe("Matching locations when the traversal began"),
  limit: z.number().int(),
  offset: z.number().int().describe("Position of this page's first location"),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page"),
  locations: z.array(ZFeedLocation),
  attributions: ZAttributions.describe(
    "Licence notices owed for this page's locations (OpenStreetMap's ODbL line when any came from it); show them wherever they are shown",
  ),
});

export type TGetPartnerFeedInput = z.input<typeof ZGetPartnerFeedInput>;
export type TGetPartnerFeedOutput = z.infer<typeof ZGetPartnerFeedOutput>;

export const getPartnerFeedMeta: DirectoryMeta = {
  nextPageLink: true,
  openapi: {
    method: "GET",
    path: "/api/v2/partner-feed",
    operationId: "getPartnerFeed",
    tags: ["partners"],
    summary: "Bulk paginated feed of verified business locations (partner key required)",
    protect: true,
    errorResponses: {
      400: "Invalid parameter: limit outside 1 to 500, offset outside 0 to 10,000,000, updatedSince not an ISO date, or a cursor not passed back unchanged",
    },
  },
};
