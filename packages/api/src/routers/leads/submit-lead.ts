import { submitLead as storeLead } from "../../services/leads/leads";
import { leadSubmissionProcedure } from "../../procedures/builders";
import { countNewLead } from "../../procedures/limits";
import { submitLeadMeta, ZSubmitLeadOutput } from "./submit-lead.types";

/** submit_lead: consent-gated; the builder's input schema refuses anything but an explicit attestation. A new lead counts against the lead allowances, a replay does not. */
export const submitLead = leadSubmissionProcedure
  .meta(submitLeadMeta)
  .output(ZSubmitLeadOutput)
  .mutation(({ ctx, input }) =>
    storeLead(ctx.db, {
      ...input,
      submitter: { apiKeyId: ctx.apiKey?.id ?? null, clientIp: ctx.clientIp },
      countNewLead: (tx, business) => countNewLead(ctx, tx, business.slug),
    }),
  );
