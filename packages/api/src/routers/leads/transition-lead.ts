import { transitionLead as moveLead } from "../../services/leads/leads";
import { businessProcedure } from "../../procedures/builders";
import { ZLeadView } from "./leads.types";
import { transitionLeadMeta, ZTransitionLeadInput } from "./transition-lead.types";

/** The owning business moves its lead forward with its business key. */
export const transitionLead = businessProcedure
  .meta(transitionLeadMeta)
  .input(ZTransitionLeadInput)
  .output(ZLeadView)
  .mutation(({ ctx, input }) => moveLead(ctx.db, { leadId: input.leadId, status: input.status, businessId: ctx.business.id }));
