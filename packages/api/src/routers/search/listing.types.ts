import { z } from "zod";
import { PLAN_TIERS } from "@directory/db/enums";
import { ZOwnerLongText, ZOwnerText } from "../../services/shared/owner-text-schemas";
import { LISTING_RANKING_MODEL_MEANING, RANKING_MODEL } from "../../services/search/disclosures";

/** When a listing next opens or closes after the instant its search named. */
export const ZNextChange = z.object({
  change: z.enum(["opens", "closes"]),
  utc: z.string().describe("The instant in UTC, ISO 8601"),
  local: z.string().describe("The same instant as local date-time with its offset, ISO 8601"),
});

/** Spec 2.1 under score contract 2.1-phase0: geoScore and visibilityScore are absent by design. */
export const ZListing = z.object({
  id: z.string().describe("Immutable business id; /entity/{id}?format=json serves it"),
  slug: z.string(),
  name: ZOwnerText,
  category: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string().describe("ISO 3166-1 alpha-2"),
  address: ZOwnerText.nullable().describe("Street address; null when no source gives one"),
  phone: ZOwnerText,
  website: ZOwnerText,
  description: ZOwnerLongText,
  services: ZOwnerLongText.describe("Comma-separated services"),
  usp: ZOwnerText,
  rating: z.number().min(0).max(5).nullable(),
  reviewCount: z.number().int().min(0).describe("Reviews behind the rating"),
  planTier: z.enum(PLAN_TIERS).describe("Paid tiers rank first; disclosed, never hidden"),
  verified: z.boolean().describe("True when the owner verified the listing"),
  ownership: z.enum(["owner_verified", "unclaimed"]),
  profileUrl: z.string(),
  lastVerifiedAt: z
    .string()
    .nullable()
    .describe("When a fact of this listing was last vouched for by an admin or the owner (newest such claim's observedAt); null if never"),
  staleCount: z.number().int().min(0).describe("Current facts past their useful life (the profile's claims say which: stale)"),
  operatingStatus: z
    .object({ status: z.literal("temporarily_closed"), reopensOn: z.string().optional().describe("YYYY-MM-DD, when known") })
    .optional()
    .describe("Present when the business is closed for now (it stays listed; open filters leave it out)"),
  openingHours: z
    .string()
    .optional()
    .describe('Weekly hours in OSM syntax, local time, e.g. "Mo-Fr 09:00-18:00; Sa 10:00-14:00" or "24/7"; absent when unknown'),
  openNow: z.boolean().optional().describe("Open at the instant the search named (openAt, or now with openNow); absent otherwise"),
  nextChange: ZNextChange.nullable().optional().describe("When it next opens or closes after that instant; null when it never changes (24/7)"),
  distanceKm: z.number().min(0).optional().describe("Great-circle km from near; absent without near"),
  directoryCompletenessScore: z.number().min(0).max(100),
  directoryCompletenessScoreLabel: z.string(),
  rankingModel: z.literal(RANKING_MODEL).describe(LISTING_RANKING_MODEL_MEANING),
  recommended: z.literal(false),
});

/** Comma-separated list of requested fields; geoScore/visibilityScore are logged and still omitted. */
export const ZFieldsParam = z
  .string()
  .max(200)
  .optional()
  .describe("Legacy: geoScore and visibilityScore were removed (score contract 2.1-phase0); asking for them is logged and they stay omitted");

export type TListing = z.infer<typeof ZListing>;
