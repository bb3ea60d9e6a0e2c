import { z } from "zod";
import { ZCategoryParam, ZResolvedCategory } from "./search.types";

export const ZAvailableCitiesInput = z.object({
  category: ZCategoryParam,
  limit: z.number().int().min(1).max(200).default(50).describe("How many cities to return: 1 to 200, default 50"),
});

export const ZAvailableCitiesOutput = z.object({
  category: ZResolvedCategory,
  cities: z.array(z.object({ name: z.string(), slug: z.string(), country: z.string(), region: z.string(), listings: z.number().int() })),
  total: z.number().int(),
});

export type TAvailableCitiesInput = z.input<typeof ZAvailableCitiesInput>;
export type TAvailableCitiesOutput = z.infer<typeof ZAvailableCitiesOutput>;
