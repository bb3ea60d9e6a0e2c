import { z } from "zod";
import { ACCOUNTS_LISTED_MAX } from "../../../services/accounts/account-admin";
import { ZAdminAccountSummary } from "./accounts.types";

export const ZListAccountsInput = z.object({ limit: z.number().int().min(1).max(ACCOUNTS_LISTED_MAX).default(100) });

export const ZListAccountsOutput = z.array(ZAdminAccountSummary);

export type TListAccountsInput = z.input<typeof ZListAccountsInput>;
export type TListAccountsOutput = z.infer<typeof ZListAccountsOutput>;
