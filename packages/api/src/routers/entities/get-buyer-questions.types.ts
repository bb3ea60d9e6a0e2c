import { z } from "zod";
import { ZOwnerLongText, ZOwnerText } from "../owner-text.types";
import { ZBusinessRef, type ZBySlugInput } from "./entities.types";

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
