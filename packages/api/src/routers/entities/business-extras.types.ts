import { z } from "zod";
import { ZCurrencyCode, ZOwnerLongText, ZOwnerText, ZOwnerTextList } from "../owner-text.types";

const ZSlug = z.string().trim().min(1).max(200).describe('A business slug as returned by the search tools, e.g. "bright-smile-dental-mumbai"; a former slug also resolves');
const ZBusinessRef = z.object({ slug: z.string(), name: ZOwnerText });

export const ZBySlugInput = z.object({ slug: ZSlug });

export const ZBuyerQuestionsOutput = z.object({
  business: ZBusinessRef,
  questions: z.array(
    z.object({
      question: ZOwnerText,
      answer: ZOwnerLongText.nullable(),
      source: z.enum(["owner", "category_template"]).describe("owner: submitted by the business; category_template: asked of every business in the category"),
    }),
  ),
  total: z.number().int(),
});

export const ZOffersOutput = z.object({
  business: ZBusinessRef,
  offers: z.array(
    z.object({
      title: ZOwnerText,
      description: ZOwnerLongText.nullable(),
      price: z.string().describe("Decimal amount, exact"),
      currency: ZCurrencyCode,
      validUntil: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
});

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
