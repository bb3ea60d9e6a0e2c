import { and, asc, eq, isNotNull } from "drizzle-orm";
import { buyerQuestions, type Db } from "@directory/db";

export interface AnsweredOwnerQuestionsParams {
  businessId: string;
  limit: number;
}

/** Owner-submitted questions that have an answer, oldest first, bounded. */
export async function listAnsweredOwnerQuestions(db: Db, params: AnsweredOwnerQuestionsParams) {
  return db
    .select({ question: buyerQuestions.question, answer: buyerQuestions.answer })
    .from(buyerQuestions)
    .where(and(eq(buyerQuestions.businessId, params.businessId), isNotNull(buyerQuestions.answer)))
    .orderBy(asc(buyerQuestions.createdAt), asc(buyerQuestions.id))
    .limit(params.limit);
}
