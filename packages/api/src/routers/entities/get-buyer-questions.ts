import { replicaReads } from "../../procedures/read-routing";
import { listBuyerQuestions } from "../../services/entities/business-extras";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { ZBySlugInput } from "./entities.types";
import { getBuyerQuestionsMeta, ZBuyerQuestionsOutput } from "./get-buyer-questions.types";

/** Owner-submitted questions plus the category's templates (get_buyer_questions). */
export const getBuyerQuestions = anonymousDailyProcedure
  .use(replicaReads)
  .meta(getBuyerQuestionsMeta)
  .input(ZBySlugInput)
  .output(ZBuyerQuestionsOutput)
  .query(({ ctx, input }) => listBuyerQuestions(ctx.readDb, input));
