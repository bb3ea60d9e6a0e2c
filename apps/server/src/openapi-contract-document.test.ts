import { request, type IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { restRouter } from "@directory/api";
import type { OpenApiParameter } from "./testing";
import { active, document, freshAddress, operation, requiredFields, server, useContractServer } from "./openapi-contract-fixtures";

/** The OpenAPI document as a whole: security as the access classes say, rate-limit headers, license, contact and tags. */

useContractServer();

/** A GET through node:http: fetch adds Cache-Control: no-cache to a conditional request, which makes the server answer in full. */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    request(new URL(path, server.url), { headers: { "x-forwarded-for": freshAddress(), ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    })
      .on("error", reject)
      .end();
  });
}

describe("the document as a whole", () => {
  it("shows a key as required exactly where the procedure's access class requires one", () => {
    const procedures = restRouter._def.procedures as unknown as Record<string, { _def: { meta?: { access?: string; openapi?: { operationId: string } } } }>;
    let checked = 0;
    for (const procedure of Object.values(procedures)) {
      const meta = procedure._def.meta;
      if (!meta?.openapi) continue;
      const keyed = ["key", "partner", "business", "admin"].includes(meta.access ?? "");
      expect(operation(meta.openapi.operationId).security, meta.openapi.operationId).toEqual(keyed ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }]);
      checked += 1;
    }
    expect(checked).toBe(Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0));
    expect(operation("getPartnerFeed").security).toEqual([{ bearerAuth: [] }]);
  });

  it("documents RateLimit headers on the 200 and 429 of limited operations, and Retry-After on 429 and 503", () => {
    for (const methods of Object.values(document.paths)) {
      for (const op of Object.values(methods)) {
        // Admin keys count against no limit (packages/api/src/procedures/limits.ts): their operations document none, and no 429.
        if (op.tags.includes("admin")) {
          expect(op.responses["429"], op.operationId).toBeUndefined();
          expect(Object.keys(op.responses["503"]!.headers ?? {}), op.operationId).toContain("Retry-After");
          continue;
        }
        expect(Object.keys((op.responses["200"] ?? op.responses["201"] ?? op.responses["202"])!.headers ?? {}), op.operationId).toEqual(
          expect.arrayContaining(["RateLimit", "RateLimit-Policy"]),
        );
        expect(Object.keys(op.responses["429"]!.headers ?? {}), op.operationId).toEqual(
          expect.arrayContaining(["RateLimit", "RateLimit-Policy", "Retry-After"]),
        );
        expect(Object.keys(op.responses["503"]!.headers ?? {}), op.operationId).toContain("Retry-After");
        expect(requiredFields(op.responses["429"]!.content!["application/json"]!.schema)).toEqual(expect.arrayContaining(["limit", "policy", "resetAt"]));
      }
    }
    for (const name of ["RateLimit", "RateLimit-Policy", "Retry-After"]) expect(document.components.headers[name]).toBeDefined();
  });

  it('documents the Link header (rel="next") on the 200 of the partner feed\'s pages, and on no other operation', () => {
    const linked = Object.values(document.paths)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => Object.keys((op.responses["200"] ?? op.responses["201"] ?? op.responses["202"])!.headers ?? {}).includes("Link"))
      .map((op) => op.operationId);
    expect(linked.sort()).toEqual(["getPartnerFeed", "getPartnerFeedChanges"]);
    expect(document.components.headers.Link!.description).toMatch(/rel="next"/);
  });

  it("documents X-Request-Id on every response, and ETag on the 200 of reads whose answer may be public", () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const parameter = (operationId: string, name: string): OpenApiParameter | undefined =>
      operations.find((op) => op.operationId === operationId)?.parameters?.find((item) => item.name === name);
    let etagged = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect(Object.keys(response.headers ?? {}), `${op.operationId} ${status}`).toContain("X-Request-Id");
        }
        const keyed = JSON.stringify(op.security) === JSON.stringify([{ bearerAuth: [] }]);
        const success = (op.responses["200"] ?? op.responses["201"] ?? op.responses["202"])!;
        const hasEtag = Object.keys(success.headers ?? {}).includes("ETag");
        // Anonymous GETs of the search, profile and discovery routes are public; keyed and write operations never are.
        if (keyed || method !== "get") expect(hasEtag, `${op.operationId} ${path}`).toBe(false);
        if (hasEtag) etagged += 1;
      }
    }
    expect(etagged).toBeGreaterThanOrEqual(10);
    for (const operationId of ["searchBusinesses", "lookupBusinesses", "getEntityProfile", "getEntityById", "getAgentProfile"]) {
      expect(Object.keys(operation(operationId).responses["200"]?.headers ?? {}), operationId).toContain("ETag");
    }
    expect(document.components.headers["X-Request-Id"]!.schema).toMatchObject({ type: "string", maxLength: 64 });
    expect(document.components.headers.ETag!.description).toMatch(/If-None-Match.*304/);
    expect(parameter("getEntityProfile", "history")!.schema).toMatchObject({ type: "boolean", default: false });
    expect(parameter("getEntityById", "history")!.schema).toMatchObject({ type: "boolean", default: false });
    expect(parameter("getPartnerFeed", "updatedSince")!.schema).toMatchObject({ type: "string", format: "date-time" });
  });

  it("the server sends what it documents: X-Request-Id (the client's own when valid), an ETag a 304 honours, history=true|false", async () => {
    const path = `/api/v2/entity-profile?slug=${active.slug}`;
    const first = await get(path, { "x-request-id": "trace.42-a" });
    expect(first.status).toBe(200);
    expect(first.headers["x-request-id"]).toBe("trace.42-a");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await get(path, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = await get(`${path}&history=false`, { "x-request-id": "no spaces allowed" });
    expect(invalid.status).toBe(200);
    expect(invalid.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("lists this origin first among its servers, then the public base URL, and writes placeholders as Markdown code", () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" }), expect.objectContaining({ url: "http://directory.test" })]);
    // Markdown renderers (Swagger UI) drop <key> as an unknown HTML tag: "Bearer <key>" showed as "Bearer .".
    expect(document.info.description).toContain("Authorization: Bearer `<key>`.");
    const bare: string[] = [];
    JSON.stringify(document, (key, value: unknown) => {
      if ((key === "description" || key === "summary") && typeof value === "string") {
        const outsideCode = value.replace(/`[^`]*`/g, "");
        if (/<[^<>\s]+>/.test(outsideCode)) bare.push(value);
      }
      return value;
    });
    expect(bare).toEqual([]);
  });

  it("has a license, a contact and a described tag for every tag an operation uses", () => {
    expect(document.info.license).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^http/) });
    expect(document.info.contact).toMatchObject({ email: expect.stringContaining("@") });
    const declared = new Map(document.tags.map((tag) => [tag.name, tag.description]));
    for (const methods of Object.values(document.paths)) {
      for (const op of Object.values(methods)) for (const tag of op.tags) expect(declared.get(tag), tag).toMatch(/\w+/);
    }
  });

  it("gives sort an example on every search that takes it: /api/v2/businesses, keyword search, the listicle and the rest", () => {
    const searches = ["lookupBusinesses", "searchKeyword", "getListicle", "searchCategory", "searchBusinesses"];
    for (const operationId of searches) {
      const parameters = Object.values(document.paths)
        .flatMap((methods) => Object.values(methods))
        .find((op) => op.operationId === operationId)?.parameters;
      expect(parameters?.find((parameter) => parameter.name === "sort")?.schema?.examples, operationId).toEqual(["rating"]);
    }
  });

  it("keeps no trpc-to-openapi error components, whose names collide across operations", () => {
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith("error."))).toEqual([]);
  });
});
