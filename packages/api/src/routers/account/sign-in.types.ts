import { z } from "zod";

export const ZRequestSignInOutput = z.object({
  sent: z.literal(true).describe("Always true: the answer never tells whether the address has an account"),
});

export const ZCompleteSignInInput = z.object({ token: z.string().trim().min(1).max(200) });
export const ZCompleteSignInOutput = z.object({ signedIn: z.literal(true), home: z.string() });
