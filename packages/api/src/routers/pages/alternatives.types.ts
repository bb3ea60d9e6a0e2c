import { z } from "zod";
import { ZListing } from "../search/listing.types";
import { ZResolvedCategory, ZResolvedCity } from "../search/search.types";

export const ZAlternativesInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("A business slug, current or former, servable or decommissioned"),
  limit: z.number().int().min(1).max(10).default(5),
});

export const ZAlternativesOutput = z.object({
  category: ZResolvedCategory,
  city: ZResolvedCity,
  decommissioned: z.boolean().describe("True when the business itself can no longer be served (410)"),
  alternatives: z.array(ZListing).describe("Other servable businesses of the same category in the same city, in ranking order"),
});

export type TAlternativesInput = z.input<typeof ZAlternativesInput>;
export type TAlternativesOutput = z.infer<typeof ZAlternativesOutput>;
