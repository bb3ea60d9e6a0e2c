import { z } from "zod";
import { ZAccountEmail, ZCalendarDay, type ZAdminAccountSummary } from "./accounts.types";

export const ZGrantPlanInput = z.object({
  email: ZAccountEmail,
  until: ZCalendarDay.describe("The last day (UTC) the plan counts; it must not have ended"),
});

export type TGrantPlanInput = z.input<typeof ZGrantPlanInput>;
export type TGrantPlanOutput = z.infer<typeof ZAdminAccountSummary>;
