import { z } from "zod";
import { ZOwnerText } from "../owner-text.types";

const ZBusinessRef = z.object({ slug: z.string(), name: ZOwnerText });

export const ZVisibilityOutput = z.object({
  business: ZBusinessRef,
  visibilityScore: z.number().describe("Internal visibility score 0-100; shown only to the business itself"),
  geoScore: z.number().describe("Internal GEO score 0-100; shown only to the business itself"),
  citationRate: z.object({ checks: z.number().int(), mentioned: z.number().int(), rate: z.number().min(0).max(1) }),
  periodDays: z.number().int(),
});

export const ZCitationsInput = z.object({ limit: z.number().int().min(1).max(100).default(20).describe("How many checks to return: 1 to 100, default 20") });

export const ZCitationsOutput = z.object({
  business: ZBusinessRef,
  checks: z.array(
    z.object({
      engine: z.string(),
      query: ZOwnerText.describe("The question the engine was asked (third-party text)"),
      mentioned: z.boolean(),
      position: z.number().int().nullable().describe("1-based place among the businesses the answer names; null when not mentioned"),
      checkedAt: z.string(),
    }),
  ),
  total: z.number().int(),
});
