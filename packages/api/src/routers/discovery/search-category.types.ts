import { z } from "zod";
import { ZCategoryParam, ZCityParam, ZToolLimit } from "./discovery.types";

export const ZSearchCategoryInput = z.object({
  category: ZCategoryParam,
  city: ZCityParam.optional().describe('City to search in, e.g. "Mumbai"; omit for national or product listings across every city'),
  limit: ZToolLimit,
});

export const ZCategoryLeadersInput = z.object({ category: ZCategoryParam, limit: ZToolLimit });
