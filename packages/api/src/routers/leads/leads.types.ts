import { z } from "zod";
import { LEAD_STATUSES } from "@directory/db/enums";

/** What anyone outside the business sees of a lead: its status and dates, never personal data. */
export const ZLeadView = z.object({
  leadId: z.string().describe("Unguessable id; keep it to check the status"),
  status: z.enum(LEAD_STATUSES).describe("new -> contacted -> won | lost; or new -> rejected"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type TLeadView = z.infer<typeof ZLeadView>;
