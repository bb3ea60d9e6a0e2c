import { z } from "zod";

export const ZStartWebsiteClaimOutput = z.object({
  token: z.string().describe("Shown this once; only its hash is kept. A new start replaces it"),
  expiresAt: z.string().describe("ISO time until which the token can be checked (7 days)"),
  homePage: z.string().describe("The listing's website: the page whose head gets the meta tag"),
  metaTag: z.string().describe("The tag to put in the home page's head"),
  fileUrl: z.string().describe("Or: the token alone in this file"),
});

export type TStartWebsiteClaimOutput = z.infer<typeof ZStartWebsiteClaimOutput>;
