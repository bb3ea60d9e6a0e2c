import { z } from "zod";
import { ZAccountEmail, type ZAdminAccountSummary } from "./accounts.types";

export const ZDisableAccountInput = z.object({ email: ZAccountEmail });

export type TDisableAccountInput = z.input<typeof ZDisableAccountInput>;
export type TDisableAccountOutput = z.infer<typeof ZAdminAccountSummary>;
