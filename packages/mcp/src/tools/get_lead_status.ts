import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZLeadStatusInput, ZLeadView } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, READ_ONLY } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetLeadStatus(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_lead_status",
    {
      title: "Status of a submitted lead",
      description: "The status and timestamps of a lead sent with submit_lead, by the leadId it returned. No personal data is returned.",
      inputSchema: ZLeadStatusInput,
      outputSchema: toolOutput(ZLeadView),
      annotations: READ_ONLY,
    },
    ({ leadId }) => callProcedure(() => client.leads.status.query({ leadId })),
  );
}
