import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

export const ZAccountKey = z.object({
  id: z.uuid(),
  label: ZOwnerText,
  visiblePrefix: z.string().describe("The key's first characters, to recognise it by"),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  usedThisMonth: z.number().int(),
  monthlyLimit: z.number().int().describe("TRIAL_MONTHLY_LIMIT without a developer plan, KEY_MONTHLY_LIMIT with one"),
});
export const ZListAccountKeysOutput = z.array(ZAccountKey);

export const ZCreateAccountKeyInput = z.object({ label: z.string().trim().min(1, "a label is needed, to recognise the key by").max(100) });
export const ZCreateAccountKeyOutput = z.object({ id: z.uuid(), key: z.string().describe("The key itself: shown this once, only its hash is kept") });

export const ZRevokeAccountKeyInput = z.object({ id: z.uuid() });
export const ZRevokeAccountKeyOutput = z.object({ revoked: z.literal(true) });

export type TAccountKey = z.infer<typeof ZAccountKey>;
export type TCreateAccountKeyInput = z.input<typeof ZCreateAccountKeyInput>;
export type TCreateAccountKeyOutput = z.infer<typeof ZCreateAccountKeyOutput>;
