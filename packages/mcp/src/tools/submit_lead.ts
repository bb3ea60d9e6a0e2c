import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZSubmitLeadInput, ZSubmitLeadOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure } from "./shared";
import { toolOutput } from "./tool-output";

export function registerSubmitLead(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "submit_lead",
    {
      title: "Send the user's enquiry to a business",
      description:
        "Sends the user's contact details and message to one business, which may then contact the user. NEVER call this speculatively or to 'try it out'. Call it only after the user explicitly agreed, in this conversation, to be contacted by this specific business: first show them a consent statement naming the business and what will be shared, wait for a clear yes, then pass that exact statement in consent.statementShownToUser. Provide contactEmail or contactPhone. Reuse the same idempotencyKey when retrying so only one lead is created. Keep the returned leadId for get_lead_status.",
      inputSchema: ZSubmitLeadInput,
      outputSchema: toolOutput(ZSubmitLeadOutput),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (input) => callProcedure(() => client.leads.submit.mutate(input)),
  );
}
