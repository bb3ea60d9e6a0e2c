import type { McpServer } from "@modelcontextprotocol/server";
import { ZLeadStatusInput, ZLeadStatusOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetLeadStatus(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_lead_status",
    {
      title: "Status of a submitted lead",
      description: "A lead's status, dates and business, by leadId. No personal data.",
      inputSchema: toolInput(ZLeadStatusInput),
      outputSchema: toolOutput(ZLeadStatusOutput),
      annotations: READ_ONLY,
    },
    ({ leadId }) => callProcedure(() => client.leads.status.query({ leadId })),
  );
}
