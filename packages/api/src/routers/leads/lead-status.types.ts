import { z } from "zod";
import { type ZLeadView } from "./leads.types";

export const ZLeadStatusInput = z.object({ leadId: z.string().trim().min(1).max(64).describe("The leadId submit_lead returned") });

export type TLeadStatusInput = z.input<typeof ZLeadStatusInput>;
export type TLeadStatusOutput = z.infer<typeof ZLeadView>;
