import { requireServableBySlug } from "../../services/entities/business-lookup";
import { buyerQuestionsFor, publishedOffersOf } from "../../services/entities/business-extras";
import { compareBusinesses } from "../../services/entities/compare";
import { v2Procedure } from "../../trpc";
import { ZBuyerQuestionsOutput, ZBySlugInput, ZCompareInput, ZCompareOutput, ZOffersOutput } from "./business-extras.types";

const servableBySlug = v2Procedure.input(ZBySlugInput).use(async ({ ctx, input, next }) => {
  const slug = (input as { slug: string }).slug;
  const business = await requireServableBySlug(ctx.db, slug);
  return next({ ctx: { business } });
});

/** Owner-submitted questions plus the category's templates (get_buyer_questions). */
export const getBuyerQuestions = servableBySlug.output(ZBuyerQuestionsOutput).query(async ({ ctx }) => {
  const questions = await buyerQuestionsFor(ctx.db, ctx.business);
  return { business: { slug: ctx.business.slug, name: ctx.business.name }, questions, total: questions.length };
});

/** Published products and services with prices (get_offers). */
export const getOffers = servableBySlug.output(ZOffersOutput).query(async ({ ctx }) => {
  const offers = await publishedOffersOf(ctx.db, ctx.business);
  return { business: { slug: ctx.business.slug, name: ctx.business.name }, offers, total: offers.length };
});

/** Two businesses side by side (compare_businesses). */
export const compare = v2Procedure
  .input(ZCompareInput)
  .output(ZCompareOutput)
  .query(({ ctx, input }) => compareBusinesses(ctx.db, ctx.publicBaseUrl, input.slugA, input.slugB));
