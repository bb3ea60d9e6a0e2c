import { z } from "zod";
import { ZOwnerLongText, ZOwnerText, ZOwnerTextList } from "../owner-text.types";
import { ZSlug } from "./entities.types";

const ZComparedBusiness = z.object({
  slug: z.string(),
  name: ZOwnerText,
  category: z.string(),
  city: z.string(),
  rating: z.number().nullable(),
  planTier: z.string(),
  verified: z.boolean(),
  directoryCompletenessScore: z.number(),
  services: ZOwnerTextList,
  servicesText: ZOwnerLongText,
  usp: ZOwnerText,
  profileUrl: z.string(),
});

export const ZCompareInput = z.object({ slugA: ZSlug.describe("Slug of the first business"), slugB: ZSlug.describe("Slug of the second business") });
export const ZCompareOutput = z.object({
  businesses: z.tuple([ZComparedBusiness, ZComparedBusiness]),
  sharedServices: ZOwnerTextList,
  differences: z.array(ZOwnerLongText),
});

export type TCompareInput = z.input<typeof ZCompareInput>;
export type TCompareOutput = z.infer<typeof ZCompareOutput>;
