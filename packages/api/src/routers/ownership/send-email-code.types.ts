import { z } from "zod";

export const ZSendEmailCodeOutput = z.object({
  sentTo: z.string().describe("The listing's address, masked: o***@example.org"),
  expiresAt: z.string().describe("ISO time until which the code works (30 minutes)"),
});

export type TSendEmailCodeOutput = z.infer<typeof ZSendEmailCodeOutput>;
