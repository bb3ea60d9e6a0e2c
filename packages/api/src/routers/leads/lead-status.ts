import { getLeadStatus } from "../../services/leads/leads";
import { v2Procedure } from "../../trpc";
import { ZLeadStatusInput } from "./lead-status.types";
import { ZLeadView } from "./leads.types";

/** get_lead_status: status and timestamps only, never personal data. */
export const leadStatus = v2Procedure
  .input(ZLeadStatusInput)
  .output(ZLeadView)
  .query(({ ctx, input }) => getLeadStatus(ctx.db, input.leadId));
