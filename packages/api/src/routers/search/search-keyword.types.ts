import { z } from "zod";
import { ZListing } from "./listing.types";
import { ZCityParam, ZResolvedCity, ZToolLimit } from "./search.types";

export const ZSearchKeywordInput = z.object({
  query: z
    .string()
    .trim()
    .min(2)
    .max(200)
    .describe('What to look for, 2 to 200 characters, e.g. "root canal emergency" or a business name; typos are tolerated'),
  city: ZCityParam.optional().describe("Restrict to one city; omit to search everywhere"),
  limit: ZToolLimit,
});

export const ZSearchKeywordOutput = z.object({
  query: z.string(),
  city: ZResolvedCity.nullable(),
  businesses: z.array(ZListing.extend({ matchedBy: z.enum(["full_text", "fuzzy_name"]) })),
  total: z.number().int(),
  rankingModel: z.string(),
});

export type TSearchKeywordInput = z.input<typeof ZSearchKeywordInput>;
export type TSearchKeywordOutput = z.infer<typeof ZSearchKeywordOutput>;
