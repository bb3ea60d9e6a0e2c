import type { McpServer } from "@modelcontextprotocol/server";
import { ZSubmitLeadInput, ZSubmitLeadOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerSubmitLead(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "submit_lead",
    {
      title: "Send the user's enquiry to a business",
      description:
        "Sends the user's contact details and message to one business. NEVER speculatively: only after the user explicitly agreed, in this conversation, to be contacted by it. Show a consent statement naming the business and what is shared, wait for a clear yes, pass it as consent.statementShownToUser. Reuse idempotencyKey on retry; leadId feeds get_lead_status.",
      inputSchema: toolInput(ZSubmitLeadInput),
      outputSchema: toolOutput(ZSubmitLeadOutput),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (input) => callProcedure(() => client.leads.submit.mutate(input)),
  );
}
