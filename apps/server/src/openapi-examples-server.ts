import { readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { createExampleKeys, EXAMPLE_CITATION_ENGINES, type ExamplesFile, type KeyKind } from "./openapi-examples";
import { getJson, startTestServer, type OpenApiDocument, type OpenApiOperation, type TestServer } from "./testing";

/*
 * For the tests that replay the recorded examples (api-reference, docs-try-it-out): the examples
 * file, and a demo-world server of the file's own with its OpenAPI document and a key of each kind.
 */

export const recordedExamples = JSON.parse(readFileSync(new URL("../../../packages/api/src/openapi-examples.json", import.meta.url), "utf8")) as ExamplesFile;

/** An operation of the document, with the method and path it is served at. */
export type DocumentedOperation = OpenApiOperation & { method: string; path: string };

export interface ExampleServer {
  server: TestServer;
  /** The server's /api/openapi.json, whole. */
  document: OpenApiDocument;
  /** Its operations by operationId. */
  operations: Map<string, DocumentedOperation>;
  keys: Record<KeyKind, string>;
}

/** Starts the server before this file's tests and closes it after them; its parts are there once the tests run. */
export function exampleServerForThisFile(): ExampleServer {
  const fixture = {} as ExampleServer;
  beforeAll(async () => {
    fixture.server = await startTestServer({ citationEngines: EXAMPLE_CITATION_ENGINES });
    fixture.document = (await getJson<OpenApiDocument>(fixture.server.url, "/api/openapi.json")).body;
    fixture.operations = new Map();
    for (const [path, methods] of Object.entries(fixture.document.paths)) {
      for (const [method, operation] of Object.entries(methods))
        fixture.operations.set(operation.operationId, { ...operation, method: method.toUpperCase(), path });
    }
    fixture.keys = await createExampleKeys(fixture.server.database);
  });
  afterAll(async () => {
    await fixture.server?.close();
  });
  return fixture;
}
