import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { buyerQuestions, offers, type Db } from "@directory/db";
import type { BusinessRecord } from "./business-lookup";

const MAX_QUESTIONS = 20;
const MAX_OFFERS = 20;

/** Owner-submitted questions of the business first, then its category's templates; bounded. */
export async function buyerQuestionsFor(db: Db, business: BusinessRecord) {
  const rows = await db
    .select({ question: buyerQuestions.question, answer: buyerQuestions.answer, businessId: buyerQuestions.businessId })
    .from(buyerQuestions)
    .where(or(eq(buyerQuestions.businessId, business.id), eq(buyerQuestions.categorySlug, business.categorySlug)))
    .orderBy(sql`${buyerQuestions.businessId} is null`, asc(buyerQuestions.createdAt), asc(buyerQuestions.id))
    .limit(MAX_QUESTIONS);
  return rows.map((row) => ({
    question: row.question,
    answer: row.answer,
    source: row.businessId ? ("owner" as const) : ("category_template" as const),
  }));
}

/** Offers still valid now, cheapest first; prices stay decimal strings so money is exact. */
export async function publishedOffersOf(db: Db, business: BusinessRecord) {
  const rows = await db
    .select()
    .from(offers)
    .where(and(eq(offers.businessId, business.id), or(isNull(offers.validUntil), gt(offers.validUntil, sql`now()`))))
    .orderBy(asc(offers.price), asc(offers.id))
    .limit(MAX_OFFERS);
  return rows.map((offer) => ({
    title: offer.title,
    description: offer.description,
    price: offer.price,
    currency: offer.currency,
    validUntil: offer.validUntil?.toISOString() ?? null,
  }));
}
