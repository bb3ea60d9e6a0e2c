import { z } from "zod";
import { LEAD_STATUSES } from "@directory/db/enums";
import { type ZLeadView } from "./leads.types";

export const ZTransitionLeadInput = z.object({ leadId: z.string().trim().min(1).max(64), status: z.enum(LEAD_STATUSES) });

export type TTransitionLeadInput = z.input<typeof ZTransitionLeadInput>;
export type TTransitionLeadOutput = z.infer<typeof ZLeadView>;
