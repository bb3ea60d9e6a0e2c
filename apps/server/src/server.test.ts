import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TSearchBusinessesOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, type OpenApiDocument, type OpenApiOperation, startTestServer, type TestServer } from "./testing";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ bodyLimitBytes: 2_000 });
});
afterAll(async () => {
  await server?.close();
});

describe("server", () => {
  it("reports health with the database reachable", async () => {
    const { status, body } = await getJson(server.url, "/healthz");
    expect(status).toBe(200);
    expect(body).toEqual({ status: "ok", database: "reachable" });
  });

  it("answers an unknown path with a JSON 404, not an HTML page", async () => {
    for (const path of ["/nope", "/api/v2/nothing-here", "/api/assistant-plugin/extra"]) {
      const { status, body, headers } = await getJson<ErrorBody>(server.url, path);
      expect(status, path).toBe(404);
      expect(headers.get("content-type")).toMatch(/application\/json/);
      expect(body).toEqual({ error: expect.any(String), code: "NOT_FOUND" });
    }
  });

  it("refuses an oversized body with 413 JSON", async () => {
    const response = await fetch(`${server.url}/trpc/apiKeys.create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
      body: JSON.stringify({ json: { kind: "developer", label: "x".repeat(5_000) } }),
    });
    expect(response.status).toBe(413);
    // A tRPC caller gets tRPC's own error envelope, with the public body where the SDK reads it.
    const body = (await response.json()) as { error: { json: { data: { httpStatus: number; public: unknown } } } };
    expect(body.error.json.data).toMatchObject({ httpStatus: 413, public: { error: "Request body too large", code: "PAYLOAD_TOO_LARGE" } });
  });

  it("answers malformed JSON with a 400, not a 500", async () => {
    const response = await fetch(`${server.url}/trpc/apiKeys.create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { json: { code: number; data: { code: string; public: { code: string } } } } };
    expect([-32600, -32700]).toContain(body.error.json.code);
    expect(body.error.json.data.public.code).toBe("INVALID_INPUT");
  });

  it("opens CORS on public read routes only", async () => {
    const open = await fetch(`${server.url}/api/assistant-plugin?category=dentist&city=Mumbai`, { headers: { origin: "https://agent.example" } });
    expect(open.headers.get("access-control-allow-origin")).toBe("*");
    const closed = await fetch(`${server.url}/trpc/apiKeys.list`, { headers: { origin: "https://agent.example" } });
    expect(closed.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("tags every response with a request id, keeping a well-formed incoming one", async () => {
    const fresh = await fetch(`${server.url}/healthz`);
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "trace-123" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-123");
    const replaced = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "bad id <script>" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("bad id <script>");
  });

  it("describes every REST operation in OpenAPI 3.1 with the spec's operationIds and bearer auth", async () => {
    const { status, body } = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1/);
    expect(body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const operations = new Map<string, { path: string; method: string; operation: OpenApiOperation }>();
    for (const [path, methods] of Object.entries(body.paths)) {
      for (const [method, operation] of Object.entries(methods)) operations.set(operation.operationId, { path, method, operation });
    }
    expect(operations.get("searchBusinesses")).toMatchObject({ path: "/api/assistant-plugin", method: "get" });
    expect(operations.get("getEntityProfile")).toMatchObject({ path: "/api/v2/entity-profile", method: "get" });
    expect(operations.get("getAgentProfile")).toMatchObject({ path: "/business/{slug}/agent.json", method: "get" });
    expect(operations.get("lookupBusinesses")?.path).toBe("/api/v2/businesses");
    expect(operations.get("getEntityById")?.path).toBe("/entity/{id}");
    const profileResponses = operations.get("getEntityProfile")?.operation.responses;
    for (const code of ["200", "401", "404", "410"]) expect(profileResponses).toHaveProperty(code);
    expect(operations.get("searchBusinesses")?.operation.responses).toHaveProperty("400");
    expect(profileResponses!["410"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(body.components.schemas.Error!.required).toEqual(["error", "code"]);
    // Internal scores stay out of public output; only the business's own report names them (spec 9:
    // "the stored score fields remain internal (owner dashboard, reports)"), behind its business key.
    const { "/api/v2/owner/visibility": ownReport, ...publicPaths } = body.paths;
    expect(ownReport).toBeDefined();
    expect(JSON.stringify({ ...body, paths: publicPaths })).not.toMatch(/geoScore|visibilityScore/);
  });

  it("serves a human profile page with the anchors agent.json links to", async () => {
    const search = await getJson<TSearchBusinessesOutput>(server.url, "/api/assistant-plugin?category=dentist&city=Mumbai&limit=1");
    const slug = search.body.businesses[0]!.slug;
    const response = await fetch(`${server.url}/business/${slug}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const anchor of ["contact", "location", "questions", "hours"]) expect(html).toContain(`id="${anchor}"`);
    expect(html).toContain("application/ld+json");
    expect(html).not.toMatch(/geoScore|visibilityScore/);
  });
});
