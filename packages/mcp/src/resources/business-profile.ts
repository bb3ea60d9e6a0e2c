import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import { KEYWORD_QUERY_LENGTH } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { resourceReadError } from "./resource-errors";

/** directory://business/{slug}: the entity profile as JSON, with slug completion from keyword search. */
export function registerBusinessProfileResource(server: McpServer, client: DirectoryClient) {
  const template = new ResourceTemplate("directory://business/{slug}", {
    list: undefined,
    complete: {
      slug: async (value) => {
        if (value.trim().length < KEYWORD_QUERY_LENGTH.min) return [];
        try {
          const result = await client.search.searchKeyword.query({ query: value, limit: 10 });
          return result.businesses.map((business) => business.slug);
        } catch {
          return [];
        }
      },
    },
  });
  server.registerResource(
    "business-profile",
    template,
    {
      title: "Business profile",
      description: "The full structured record of one business (identity, contact, services, claims with provenance) by slug.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const slug = String(Array.isArray(variables.slug) ? variables.slug[0] : variables.slug);
      try {
        const profile = await client.entities.getEntityProfile.query({ slug });
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(profile) }] };
      } catch (error) {
        throw resourceReadError(uri.href, error, `business "${slug}"`);
      }
    },
  );
}
