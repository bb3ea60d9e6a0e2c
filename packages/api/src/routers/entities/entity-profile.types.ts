import { z } from "zod";
import { CLAIM_PROPERTIES, CLAIM_VERIFICATIONS, OPERATING_STANDINGS, PLAN_TIERS } from "@directory/db/enums";
import type { CacheScope } from "../../procedures/meta";
import { cleanedJson, ownerList, ZOwnerLongText, ZOwnerText, ZOwnerTextList } from "../../services/shared/owner-text-schemas";

export const ZClaim = z.object({
  id: z.string(),
  property: z.string().describe(`The profile field this claim sets: ${CLAIM_PROPERTIES.join(", ")}`),
  value: cleanedJson(z.unknown()).describe("The value as stated; owner text inside it is cleaned and capped"),
  source: z
    .string()
    .describe(
      'Who said it: "openstreetmap" (a registry import), "owner:..." (the business, self-reported), "admin:..." (verified by us); "demo:" marks generated demo data',
    ),
  recordId: z.string().nullable().describe('The record in the source this fact came from, e.g. "node/123" for OpenStreetMap; null when the source has no ids'),
  recordUrl: z.string().nullable().describe("That record's page at its source (https://www.openstreetmap.org/node/123); null when none"),
  confidence: z.number().min(0).max(1),
  verification: z.enum(CLAIM_VERIFICATIONS),
  observedAt: z.string().describe("When the source saw the fact (for a registry: when the record last changed there)"),
  staleAfter: z.string().describe("observedAt plus the property's useful life (hours 180 days, phone 365, description 730; see docs/corrections.md#freshness)"),
  stale: z.boolean().describe("true once staleAfter has passed: the fact is still served, but check it or say how old it is"),
  supersededAt: z.string().nullable().describe("Set on superseded claims (history mode only)"),
  supersededBy: z.string().nullable(),
});

const ZOpeningHours = ownerList(z.object({ days: ZOwnerTextList, opens: ZOwnerText, closes: ZOwnerText }));

/**
 * A real boolean on tRPC, the SDK, MCP and GraphQL; the string true|false in a REST query, which
 * stringbool parses ("false" is false). The pipe hides the boolean from trpc-to-openapi, which would
 * otherwise coerce query strings with Boolean() and read "false" as true (see ARCHITECTURE pitfalls).
 */
export const ZHistoryParam = z
  .union([z.boolean(), z.stringbool()])
  .pipe(z.boolean())
  .default(false)
  .meta({
    description: "true adds superseded claims; needs an API key",
    // One boolean in the document; a REST query carries it as true or false (OpenAPI's form style).
    override: ({ jsonSchema }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: "boolean", default: false });
    },
  });

/** History mode shows a keyed caller superseded claims: no shared cache may keep that answer. */
export function historyModeCache(input: unknown): CacheScope {
  if ((input as { asOf?: unknown } | null | undefined)?.asOf !== undefined) return "private";
  return ZHistoryParam.safeParse((input as { history?: unknown } | null | undefined)?.history).data === true ? "private" : "public";
}

/** The licence notices owed for the facts in an answer (attributionsFor): every door that carries imported facts has them. */
export const ZAttributions = z
  .array(z.object({ text: z.string(), licence: z.string(), url: z.string() }))
  .max(5)
  .describe("Licence notices owed for these facts (e.g. OpenStreetMap's ODbL line); show them wherever the facts are shown. Empty when none is owed");

/** Spec 2.5: identity, contact, aiSignals, services, structuredData, claims. */
export const ZEntityProfile = z.object({
  apiVersion: z.string(),
  identity: z.object({
    id: z.string(),
    slug: z.string(),
    name: ZOwnerText,
    category: z.string(),
    categorySlug: z.string(),
    city: z.string(),
    state: z.string(),
    country: z.string(),
    ownership: z.enum(["owner_verified", "unclaimed"]),
    verified: z.boolean(),
    planTier: z.enum(PLAN_TIERS),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  contact: z.object({
    phone: ZOwnerText.nullable(),
    website: ZOwnerText.nullable(),
    email: ZOwnerText.nullable(),
    address: ZOwnerText.nullable().describe("Street address; null when no source gives one"),
    postalCode: ZOwnerText.nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    openingHours: ZOpeningHours,
    openingHoursText: ZOwnerText.nullable().describe(
      "The hours as the source wrote them, when they could not be read into openingHours (e.g. an OpenStreetMap string with holidays): show it as the source's own wording; null when openingHours says it",
    ),
  }),
  aiSignals: z.object({
    description: ZOwnerLongText.nullable(),
    tagline: ZOwnerText.nullable(),
    usp: ZOwnerText.nullable(),
    keywords: ZOwnerTextList,
    rating: z.number().nullable(),
    reviewCount: z.number().int(),
    directoryCompletenessScore: z.number(),
    directoryCompletenessScoreLabel: z.string(),
    rankingModel: z.literal("plan-neutral-directory-completeness"),
    recommended: z.literal(false),
  }),
  services: ZOwnerTextList,
  structuredData: cleanedJson(z.record(z.string(), z.unknown())).describe("schema.org JSON-LD (LocalBusiness subtype)"),
  operatingStatus: z
    .object({
      status: z.enum(OPERATING_STANDINGS),
      closedOn: z.string().optional(),
      reopensOn: z.string().optional(),
      since: z.string().optional().describe("unverified only: when the newest current fact went stale"),
    })
    .describe(
      "open unless a claim says otherwise; a permanently_closed business is in no list, search or feed, but its profile still answers; unverified when no claim states it and every current fact is stale (nothing current supports open; since says from when)",
    ),
  freshness: z.object({
    lastVerifiedAt: z
      .string()
      .nullable()
      .describe("observedAt of the newest current fact an admin verified or the owner stated; null when only registries said anything"),
    staleCount: z.number().int().describe("Current facts past their staleAfter"),
  }),
  claims: z.array(ZClaim),
  attributions: ZAttributions,
  history: z.boolean().describe("True when superseded claims are included"),
  asOf: z.string().nullable().describe("The moment these facts are as of (asOf=...), or null for now"),
  links: z.object({ profileUrl: z.string(), agentProfileUrl: z.string(), canonicalUrl: z.string() }),
});

export type TClaim = z.infer<typeof ZClaim>;
export type TEntityProfile = z.infer<typeof ZEntityProfile>;
