import { z } from "zod";

const ZSlug = z.string().trim().min(1).max(200).describe("Business slug; a former slug also resolves");
const ZBusinessRef = z.object({ slug: z.string(), name: z.string() });

export const ZBySlugInput = z.object({ slug: ZSlug });

export const ZBuyerQuestionsOutput = z.object({
  business: ZBusinessRef,
  questions: z.array(
    z.object({
      question: z.string(),
      answer: z.string().nullable(),
      source: z.enum(["owner", "category_template"]).describe("owner: submitted by the business; category_template: asked of every business in the category"),
    }),
  ),
  total: z.number().int(),
});

export const ZOffersOutput = z.object({
  business: ZBusinessRef,
  offers: z.array(
    z.object({
      title: z.string(),
      description: z.string().nullable(),
      price: z.string().describe("Decimal amount, exact"),
      currency: z.string().describe("ISO 4217"),
      validUntil: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
});

const ZComparedBusiness = z.object({
  slug: z.string(),
  name: z.string(),
  category: z.string(),
  city: z.string(),
  rating: z.number().nullable(),
  planTier: z.string(),
  verified: z.boolean(),
  directoryCompletenessScore: z.number(),
  services: z.array(z.string()),
  servicesText: z.string(),
  usp: z.string(),
  profileUrl: z.string(),
});

export const ZCompareInput = z.object({ slugA: ZSlug, slugB: ZSlug });
export const ZCompareOutput = z.object({
  businesses: z.tuple([ZComparedBusiness, ZComparedBusiness]),
  sharedServices: z.array(z.string()),
  differences: z.array(z.string()),
});
