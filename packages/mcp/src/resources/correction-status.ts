import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import type { DirectoryClient } from "@directory/sdk";
import { resourceReadError } from "./resource-errors";

export const CORRECTION_URI_TEMPLATE = "directory://corrections/{id}";

/**
 * directory://corrections/{id}: a correction's status as JSON, the same as GET /api/v2/corrections/{id}
 * (its status, the proposed value, its supporters, and once accepted the claim it became), so the
 * correctionId suggest_correction answers can be followed up over MCP as over REST.
 */
export function registerCorrectionStatusResource(server: McpServer, client: DirectoryClient) {
  server.registerResource(
    "correction-status",
    new ResourceTemplate(CORRECTION_URI_TEMPLATE, { list: undefined }),
    {
      title: "Correction status",
      description: "A suggested correction by its correctionId: pending, accepted (with the claim it became) or rejected. Never who submitted it.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = decodeURIComponent(String(Array.isArray(variables.id) ? variables.id[0] : variables.id));
      try {
        const status = await client.corrections.status.query({ id });
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(status) }] };
      } catch (error) {
        throw resourceReadError(uri.href, error, `correction "${id}"`);
      }
    },
  );
}
