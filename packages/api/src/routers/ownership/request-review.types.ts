import { z } from "zod";
import { ZClaimStartInput } from "./ownership.types";

export const ZRequestReviewInput = ZClaimStartInput.extend({
  evidence: z.string().trim().min(1).max(2000).describe("Why the listing is yours, for an operator: your role, how to check it"),
});

export const ZRequestReviewOutput = z.object({
  status: z.literal("pending"),
  created: z.boolean().describe("False when this replaced what your pending review said"),
  createdAt: z.string(),
});

export type TRequestReviewInput = z.input<typeof ZRequestReviewInput>;
export type TRequestReviewOutput = z.infer<typeof ZRequestReviewOutput>;
