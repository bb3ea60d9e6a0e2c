import { and, asc, eq, isNotNull } from "drizzle-orm";
import { buyerQuestions, type Db } from "@directory/db";

/** Owner-submitted questions that have an answer, oldest first, bounded. */
export async function listAnsweredOwnerQuestions(db: Db, businessId: string, limit: number) {
  return db
    .select({ question: buyerQuestions.question, answer: buyerQuestions.answer })
    .from(buyerQuestions)
    .where(and(eq(buyerQuestions.businessId, businessId), isNotNull(buyerQuestions.answer)))
    .orderBy(asc(buyerQuestions.createdAt), asc(buyerQuestions.id))
    .limit(limit);
}
