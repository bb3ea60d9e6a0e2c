import { getLeadStatus as statusOf } from "../../services/leads/leads";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { getLeadStatusMeta, ZLeadStatusInput, ZLeadStatusOutput } from "./get-lead-status.types";

/** get_lead_status: status, timestamps and the business, never personal data. */
export const getLeadStatus = anonymousDailyProcedure
  .meta(getLeadStatusMeta)
  .input(ZLeadStatusInput)
  .output(ZLeadStatusOutput)
  .query(({ ctx, input }) => statusOf(ctx.db, input.leadId));
