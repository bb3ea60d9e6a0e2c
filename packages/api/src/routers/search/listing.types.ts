import { z } from "zod";
import { PLAN_TIERS } from "@directory/db/enums";
import { ZOwnerLongText, ZOwnerText } from "../owner-text.types";
import { LISTING_RANKING_MODEL_MEANING, RANKING_MODEL } from "../../services/search/disclosures";

/** Spec 2.1 under score contract 2.1-phase0: geoScore and visibilityScore are absent by design. */
export const ZListing = z.object({
  id: z.string().describe("Immutable business id; /entity/{id}?format=json serves it"),
  slug: z.string(),
  name: ZOwnerText,
  category: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string().describe("ISO 3166-1 alpha-2"),
  address: ZOwnerText,
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
