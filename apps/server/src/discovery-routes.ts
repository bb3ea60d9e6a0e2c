import type { Express, Response } from "express";
import type { OpenAPIObject } from "trpc-to-openapi";
import { documentedOperations, OPERATION_PAGES_PATH, operationPage } from "@directory/api";
import { AI_CATALOG_MEDIA_TYPE, aiCatalog, DISCOVERY_PATHS, MCP_SERVER_CARD_MEDIA_TYPE, mcpServerCard } from "@directory/api/schemas";

/**
 * The documents agents discover the directory by: the AI Catalog, the MCP server card (and its
 * earlier well-known alias), and one Markdown page per REST operation. Mounted before the MCP
 * door, whose routes take every path under /api/mcp.
 */
export function mountDiscoveryRoutes(app: Express, publicBaseUrl: string, openApiDocument: OpenAPIObject): void {
  const sendAs = (res: Response, mediaType: string, document: unknown) => {
    res.set("Content-Type", `${mediaType}; charset=utf-8`).send(JSON.stringify(document));
  };
  const catalog = aiCatalog(publicBaseUrl);
  const card = mcpServerCard(publicBaseUrl);

  app.get(DISCOVERY_PATHS.aiCatalog, (_req, res) => sendAs(res, AI_CATALOG_MEDIA_TYPE, catalog));
  app.get([DISCOVERY_PATHS.serverCard, DISCOVERY_PATHS.serverCardAlias], (_req, res) => sendAs(res, MCP_SERVER_CARD_MEDIA_TYPE, card));

  // Every page built once: the document does not change while the server runs.
  const pages = new Map(documentedOperations(openApiDocument).map(({ operationId }) => [`${operationId}.md`, operationPage(openApiDocument, operationId)]));
  app.get(`${OPERATION_PAGES_PATH}/:page`, (req, res) => {
    const page = pages.get(req.params.page);
    if (!page) {
      res.status(404).json({ error: "No such REST operation page: /llms.txt lists every operation with its page", code: "NOT_FOUND" });
      return;
    }
    res.type("text/markdown; charset=utf-8").send(page);
  });
}
