import { z } from "zod";
import { API_KEY_KINDS } from "@directory/db/enums";

/** A key as admins see it: never the key or its hash. */
export const ZApiKeySummary = z.object({
  id: z.string(),
  kind: z.enum(API_KEY_KINDS),
  visiblePrefix: z.string(),
  businessId: z.string().nullable(),
  label: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  accountEmail: z.string().nullable().describe("The account that made the key on the developer page; null for an operator's key"),
});

export type TApiKeySummary = z.infer<typeof ZApiKeySummary>;
