import { z } from "zod";
import { ZResolvedCategory, ZResolvedCity } from "../search/search.types";

export const ZOverviewInput = z
  .object({ limit: z.number().int().min(1).max(50).default(12).describe("How many categories and cities: 1 to 50, default 12") })
  .default({ limit: 12 });

export const ZOverviewOutput = z.object({
  categories: z.array(ZResolvedCategory).describe("Most popular categories first"),
  cities: z.array(ZResolvedCity).describe("Most populous cities first"),
});

export type TOverviewInput = z.input<typeof ZOverviewInput>;
export type TOverviewOutput = z.infer<typeof ZOverviewOutput>;
