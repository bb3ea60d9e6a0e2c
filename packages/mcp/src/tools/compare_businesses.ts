import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZCompareInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY } from "./shared";

const ZCompared = z.object({ slug: z.string(), name: z.string(), planTier: z.string(), services: z.array(z.string()) }).loose();

export function registerCompareBusinesses(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "compare_businesses",
    {
      title: "Compare two businesses",
      description: "Two businesses side by side: ratings, plan tier, verification, directory completeness score, services, USPs, shared services and the differences in plain words.",
      inputSchema: ZCompareInput,
      outputSchema: looseOutput({ businesses: z.array(ZCompared).length(2), sharedServices: z.array(z.string()), differences: z.array(z.string()) }),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.entities.compare.query(input)),
  );
}
