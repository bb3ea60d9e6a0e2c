import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { buyerQuestions, offers, type Db } from "@directory/db";
import { requireServableBySlug, type BusinessRecord } from "./business-lookup";

export const MAX_QUESTIONS = 20;
export const MAX_OFFERS = 20;

export interface BusinessBySlugParams {
  /** Current or former slug; an unknown one is a 404, a decommissioned business a 410. */
  slug: string;
}

function businessRef(business: BusinessRecord) {
  return { slug: business.slug, name: business.name };
}

/** Owner-submitted questions of the business first, then its category's templates; bounded. */
export async function listBuyerQuestions(db: Db, params: BusinessBySlugParams) {
  const business = await requireServableBySlug(db, params.slug);
  const rows = await db
    .select({ question: buyerQuestions.question, answer: buyerQuestions.answer, businessId: buyerQuestions.businessId })
    .from(buyerQuestions)
    .where(or(eq(buyerQuestions.businessId, business.id), eq(buyerQuestions.categorySlug, business.categorySlug)))
    .orderBy(sql`${buyerQuestions.businessId} is null`, asc(buyerQuestions.createdAt), asc(buyerQuestions.id))
    .limit(MAX_QUESTIONS);
  const questions = rows.map((row) => ({
    question: row.question,
    answer: row.answer,
    source: row.businessId ? ("owner" as const) : ("category_template" as const),
  }));
  return { business: businessRef(business), questions, total: questions.length };
}

/** Offers still valid now, cheapest first; prices stay decimal strings so money is exact. */
export async function listOffers(db: Db, params: BusinessBySlugParams) {
  const business = await requireServableBySlug(db, params.slug);
  const rows = await db
    .select()
    .from(offers)
    .where(and(eq(offers.businessId, business.id), or(isNull(offers.validUntil), gt(offers.validUntil, sql`now()`))))
    .orderBy(asc(offers.price), asc(offers.id))
    .limit(MAX_OFFERS);
  const published = rows.map((offer) => ({
    title: offer.title,
    description: offer.description,
    price: offer.price,
    currency: offer.currency,
    validUntil: offer.validUntil?.toISOString() ?? null,
  }));
  return { business: businessRef(business), offers: published, total: published.length };
}
