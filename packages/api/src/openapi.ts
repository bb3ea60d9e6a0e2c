import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { appRouter } from "./root";

export const API_VERSION = "1.0.0";

type SchemaObject = NonNullable<NonNullable<OpenAPIObject["components"]>["schemas"]>[string];

const ERROR_SCHEMA: SchemaObject = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "What went wrong, in one sentence" },
    code: { type: "string", description: "Stable machine-readable code, e.g. MISSING_PARAMETER, ENTITY_DECOMMISSIONED" },
  },
  additionalProperties: true,
};

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; security?: unknown };

/**
 * OpenAPI 3.1 of every REST operation, generated from the same procedures tRPC serves, then
 * corrected where trpc-to-openapi cannot know our conventions: every error body is
 * { error, code } (see errors.ts), and a key is optional unless an operation says otherwise.
 */
export function createOpenApiDocument(baseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Business Directory API",
    description:
      "A worldwide business directory for AI agents. Every fact carries its source and confidence. " +
      "Errors are JSON bodies { error, code }. Keys are sent as Authorization: Bearer <key>.",
    version: API_VERSION,
    baseUrl,
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer bdk_<kind>_<key>" } },
  });
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods as Record<string, Operation>)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400 && response.content) response.content = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
      }
      operation.security = [{}, { bearerAuth: [] }];
    }
  }
  const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")));
  document.components = { ...document.components, schemas: { ...schemas, Error: ERROR_SCHEMA } };
  return document;
}
