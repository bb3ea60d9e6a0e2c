import { z } from "zod";
import { ZCurrencyCode, ZOwnerLongText, ZOwnerText } from "../owner-text.types";
import { ZBusinessRef, type ZBySlugInput } from "./entities.types";

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

export type TGetOffersInput = z.input<typeof ZBySlugInput>;
export type TGetOffersOutput = z.infer<typeof ZOffersOutput>;
