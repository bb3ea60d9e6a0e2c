import { z } from "zod";
import { ZCategoryParam, ZRankedListings, ZToolLimit } from "./search.types";

export const ZCategoryLeadersInput = z.object({ category: ZCategoryParam, limit: ZToolLimit });
export const ZCategoryLeadersOutput = ZRankedListings;

export type TCategoryLeadersInput = z.input<typeof ZCategoryLeadersInput>;
export type TCategoryLeadersOutput = z.infer<typeof ZCategoryLeadersOutput>;
