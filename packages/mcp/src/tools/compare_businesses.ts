import type { McpServer } from "@modelcontextprotocol/server";
import { ZCompareInput, ZCompareOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerCompareBusinesses(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "compare_businesses",
    {
      title: "Compare two businesses",
      description: "Two businesses side by side: rating, tier, verification, completeness, services, shared services and differences in plain words.",
      inputSchema: toolInput(ZCompareInput),
      outputSchema: toolOutput(ZCompareOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.entities.compare.query(input)),
  );
}
