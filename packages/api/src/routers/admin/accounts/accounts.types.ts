import { z } from "zod";
import { isCalendarDay } from "../../../services/accounts/account-admin";

/** Shared pieces of the admin account procedures. */
export const ZAccountEmail = z
  .email()
  .max(254)
  .transform((email) => email.toLowerCase())
  .describe("The account's email address");

export const ZCalendarDay = z.string().refine(isCalendarDay, { message: "Expected a calendar day as YYYY-MM-DD" }).describe("A day, YYYY-MM-DD (UTC)");

export const ZAdminAccountPlan = z.object({
  name: z.string(),
  status: z.enum(["active", "past_due", "canceled"]),
  activeUntil: z.string(),
  source: z.string().describe('"operator" or the payment provider\'s name'),
});

export const ZAdminAccountSummary = z.object({
  email: z.string(),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  plan: ZAdminAccountPlan.nullable().describe("The stored plan, even when it no longer counts; its status and activeUntil say whether it does"),
  activeKeys: z.number().int(),
});

export type TAdminAccountSummary = z.infer<typeof ZAdminAccountSummary>;
