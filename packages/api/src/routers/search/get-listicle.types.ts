import { z } from "zod";
import { ZListing } from "./listing.types";
import { ZCategoryParam, ZCityParam, ZResolvedCategory, ZResolvedCity, ZToolLimit } from "./search.types";

export const ZGetListicleInput = z.object({ category: ZCategoryParam, city: ZCityParam, limit: ZToolLimit });

export const ZGetListicleOutput = z.object({
  title: z.string(),
  category: ZResolvedCategory,
  city: ZResolvedCity,
  businesses: z.array(ZListing),
  total: z.number().int(),
  orderedBy: z.literal("directoryCompletenessScore, then name"),
  paidPlacement: z.literal(false),
  disclosure: z.string(),
});

export type TGetListicleInput = z.input<typeof ZGetListicleInput>;
export type TGetListicleOutput = z.infer<typeof ZGetListicleOutput>;
