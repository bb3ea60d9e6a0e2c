import { z } from "zod";
import { ZAccountEmail, ZAdminAccountSummary } from "./accounts.types";

export const ZShowAccountInput = z.object({ email: ZAccountEmail });

export const ZShowAccountOutput = ZAdminAccountSummary.extend({
  keys: z.array(
    z.object({
      id: z.string(),
      label: z.string().nullable(),
      visiblePrefix: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
      revokedAt: z.string().nullable(),
    }),
  ),
  openSessions: z.number().int().describe("Signed-in browsers whose session has not expired"),
});

export type TShowAccountInput = z.input<typeof ZShowAccountInput>;
export type TShowAccountOutput = z.infer<typeof ZShowAccountOutput>;
