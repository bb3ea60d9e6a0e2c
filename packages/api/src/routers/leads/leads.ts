import { clientBucketOf } from "../../services/access/client-ip";
import { getLeadStatus, submitLead, transitionLead } from "../../services/leads/leads";
import { businessProcedure, leadSubmissionProcedure, router, v2Procedure } from "../../trpc";
import { ZLeadStatusInput, ZLeadView, ZSubmitLeadOutput, ZTransitionLeadInput } from "./leads.types";

export const leadsRouter = router({
  /** submit_lead: consent-gated; the input schema refuses anything but an explicit attestation. */
  submit: leadSubmissionProcedure
    .output(ZSubmitLeadOutput)
    .mutation(({ ctx, input }) =>
      submitLead(ctx.db, {
        ...input,
        attestedBy: ctx.apiKey ? `api-key:${ctx.apiKey.id}` : "anonymous-agent",
        idempotencyScope: ctx.apiKey ? `key:${ctx.apiKey.id}` : `ip:${ctx.clientIp === null ? "in-process" : clientBucketOf(ctx.clientIp)}`,
      }),
    ),
  /** get_lead_status: status and timestamps only, never personal data. */
  status: v2Procedure
    .input(ZLeadStatusInput)
    .output(ZLeadView)
    .query(({ ctx, input }) => getLeadStatus(ctx.db, input.leadId)),
  /** The owning business moves its lead forward with its business key. */
  transition: businessProcedure
    .input(ZTransitionLeadInput)
    .output(ZLeadView)
    .mutation(({ ctx, input }) => transitionLead(ctx.db, ctx.apiKey.businessId, input.leadId, input.status)),
});
