import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZLeadView } from "./leads.types";

export const ZLeadStatusInput = z.object({ leadId: z.string().trim().min(1).max(64).describe("The leadId submit_lead returned") });

/** The lead view plus the business it went to, so an agent following a lead up can say where it went. */
export const ZLeadStatusOutput = ZLeadView.extend({
  business: z.object({ slug: z.string(), name: z.string() }).describe("The business the lead was sent to (its current slug and name)"),
});

export type TLeadStatusInput = z.input<typeof ZLeadStatusInput>;
export type TLeadStatusOutput = z.infer<typeof ZLeadStatusOutput>;

export const getLeadStatusMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/lead-status",
    operationId: "getLeadStatus",
    tags: ["leads"],
    summary: "A submitted lead's status, timestamps and business (never the contact's data)",
    description: "The REST door of the MCP tool get_lead_status: pass the leadId that submitLead returned.",
    errorResponses: { 404: "No lead has this leadId" },
  },
};
