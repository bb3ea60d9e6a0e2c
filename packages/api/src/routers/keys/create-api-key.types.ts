import { z } from "zod";
import { API_KEY_KINDS } from "@directory/db/enums";
import { ZApiKeySummary } from "./api-key.types";

export const ZCreateApiKeyInput = z.object({
  kind: z.enum(API_KEY_KINDS),
  businessSlug: z.string().trim().min(1).max(200).optional().describe("Required for business keys"),
  label: z.string().trim().max(200).optional(),
});

export const ZCreateApiKeyOutput = z.object({
  key: z.string().describe("The plaintext key. Shown once; only its hash is stored"),
  apiKey: ZApiKeySummary,
});

export type TCreateApiKeyInput = z.input<typeof ZCreateApiKeyInput>;
export type TCreateApiKeyOutput = z.infer<typeof ZCreateApiKeyOutput>;
