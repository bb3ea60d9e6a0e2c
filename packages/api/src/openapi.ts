import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { appRouter } from "./root";

export const API_VERSION = "1.0.0";

/** OpenAPI 3.1 of every REST operation, generated from the same procedures tRPC serves. */
export function createOpenApiDocument(baseUrl: string): OpenAPIObject {
  return generateOpenApiDocument(appRouter, {
    title: "Business Directory API",
    description:
      "A worldwide business directory for AI agents. Every fact carries its source and confidence. " +
      "Errors are JSON bodies { error, code }.",
    version: API_VERSION,
    baseUrl,
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer bdk_<kind>_<key>" } },
  });
}
