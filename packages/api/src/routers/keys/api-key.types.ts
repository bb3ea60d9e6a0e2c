import { z } from "zod";
import { API_KEY_KINDS } from "@directory/db";

export const ZApiKeySummary = z.object({
  id: z.string(),
  kind: z.enum(API_KEY_KINDS),
  visiblePrefix: z.string(),
  businessId: z.string().nullable(),
  label: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});

export const ZCreateApiKeyInput = z.object({
  kind: z.enum(API_KEY_KINDS),
  businessSlug: z.string().trim().min(1).max(200).optional().describe("Required for business keys"),
  label: z.string().trim().max(200).optional(),
});

export const ZCreateApiKeyOutput = z.object({
  key: z.string().describe("The plaintext key. Shown once; only its hash is stored"),
  apiKey: ZApiKeySummary,
});

export const ZListApiKeysInput = z.object({
  limit: z.number().int().min(1).max(500).default(100),
  includeRevoked: z.boolean().default(false),
});

export const ZRevokeApiKeyInput = z.object({ id: z.uuid() });
