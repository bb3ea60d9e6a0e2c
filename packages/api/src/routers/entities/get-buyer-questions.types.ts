import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZOwnerLongText, ZOwnerText } from "../../services/shared/owner-text-schemas";
import { DECOMMISSIONED_RESPONSE, ZBusinessRef, type ZBySlugInput } from "./entities.types";

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

export type TGetBuyerQuestionsInput = z.input<typeof ZBySlugInput>;
export type TGetBuyerQuestionsOutput = z.infer<typeof ZBuyerQuestionsOutput>;

export const getBuyerQuestionsMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/buyer-questions",
    operationId: "getBuyerQuestions",
    tags: ["entities"],
    summary: "Buyer questions for a listing: the owner's, then the category's templates",
    description: "The REST door of the MCP tool get_buyer_questions, by slug (a former slug also resolves).",
    errorResponses: {
      400: "Invalid parameter: slug missing or longer than 200 characters",
      404: "Entity not found: no business has this slug, current or former",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
