import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, ZSlug } from "./shared";

export const ZLeadView = {
  leadId: z.string(),
  status: z.string().describe("new -> contacted -> won | lost; or new -> rejected"),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export function registerSubmitLead(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "submit_lead",
    {
      title: "Send the user's enquiry to a business",
      description:
        "Sends the user's contact details and message to one business, which may then contact the user. NEVER call this speculatively or to 'try it out'. Call it only after the user explicitly agreed, in this conversation, to be contacted by this specific business: first show them a consent statement naming the business and what will be shared, wait for a clear yes, then pass that exact statement in consent.statementShownToUser. Provide contactEmail or contactPhone. Reuse the same idempotencyKey when retrying so only one lead is created. Keep the returned leadId for get_lead_status.",
      inputSchema: {
        slug: ZSlug.describe("Slug of the business the user agreed to be contacted by"),
        contactName: z.string().trim().min(1).max(200).describe("The user's name, as they gave it"),
        contactEmail: z.email().max(320).optional().describe("The user's email for the reply (email or phone required)"),
        contactPhone: z.string().trim().min(5).max(40).optional().describe("The user's phone number for the reply (email or phone required)"),
        message: z.string().trim().min(1).max(2000).describe("What the user wants, in their words"),
        idempotencyKey: z.string().trim().min(8).max(100).describe("A unique key for this lead, e.g. a random UUID generated once; retrying with it never creates a second lead"),
        consent: z
          .object({
            userAgreedToBeContacted: z.literal(true).describe("Must be true: the user explicitly agreed, in this conversation, to be contacted by this business"),
            statementShownToUser: z.string().trim().min(10).max(1000).describe("The exact consent statement the user saw and agreed to"),
            consentedAt: z.iso.datetime({ offset: true }).optional().describe("When the user agreed, ISO-8601 with offset"),
          })
          .describe("Explicit consent attestation; without it no lead is sent"),
      },
      outputSchema: looseOutput({ ...ZLeadView, businessSlug: z.string().nullable() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (input) => callProcedure(() => client.leads.submit.mutate(input)),
  );
}
