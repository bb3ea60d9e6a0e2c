import { z } from "zod";
import { ZCategoryParam, ZCityParam, ZRankedListings, ZToolLimit } from "./search.types";

export const ZSearchCategoryInput = z.object({
  category: ZCategoryParam,
  city: ZCityParam.optional().describe('City to search in, e.g. "Mumbai"; omit for national or product listings across every city'),
  limit: ZToolLimit,
});
export const ZSearchCategoryOutput = ZRankedListings;

export type TSearchCategoryInput = z.input<typeof ZSearchCategoryInput>;
export type TSearchCategoryOutput = z.infer<typeof ZSearchCategoryOutput>;
