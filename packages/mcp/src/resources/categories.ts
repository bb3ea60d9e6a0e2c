import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import type { DirectoryClient } from "@directory/sdk";
import { completeCategory } from "./category-completion";
import { resourceNotFound, resourceReadError } from "./resource-errors";

export const CATEGORIES_URI = "directory://categories";

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value) }] });

/**
 * directory://categories: every category (slug, name, synonyms, listings) as JSON, the same list as
 * GET /api/v2/categories; and directory://categories/{category}: one of them, by slug, name or
 * synonym, with completion of the category.
 */
export function registerCategoryResources(server: McpServer, client: DirectoryClient) {
  server.registerResource(
    "categories",
    CATEGORIES_URI,
    {
      title: "Categories",
      description: "Every business category: slug (the value category arguments take), name, synonyms (also accepted) and the number of active listings.",
      mimeType: "application/json",
    },
    async (uri) => {
      try {
        return json(uri.href, await client.search.listCategories.query({}));
      } catch (error) {
        throw resourceReadError(uri.href, error, "the categories");
      }
    },
  );

  const template = new ResourceTemplate(`${CATEGORIES_URI}/{category}`, { list: undefined, complete: { category: completeCategory(client) } });
  server.registerResource(
    "category",
    template,
    {
      title: "Category",
      description: "One business category by slug, name or synonym: its slug, name, synonyms and number of active listings.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const asked = decodeURIComponent(String(Array.isArray(variables.category) ? variables.category[0] : variables.category));
      let list;
      try {
        list = await client.search.listCategories.query({});
      } catch (error) {
        throw resourceReadError(uri.href, error, `category "${asked}"`);
      }
      const wanted = asked.trim().toLowerCase();
      const category =
        list.categories.find((c) => c.slug === wanted || c.name.toLowerCase() === wanted) ?? list.categories.find((c) => c.synonyms.includes(wanted));
      if (!category) throw resourceNotFound(uri.href, `no category "${asked}"; ${CATEGORIES_URI} lists them all`);
      return json(uri.href, category);
    },
  );
}
