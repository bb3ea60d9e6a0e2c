import { describe, expect, it } from "vitest";
import { appRouter } from "@directory/api";
import { type JsonBody } from "./testing";
import { document, operation, requiredFields, useContractServer } from "./openapi-contract-fixtures";

/** The OpenAPI document as a whole: security as the access classes say, rate-limit headers, license, contact and tags. */

useContractServer();

describe("the document as a whole", () => {
  it("shows a key as required exactly where the procedure's access class requires one", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { access?: string; openapi?: { operationId: string } } } }>;
    let checked = 0;
    for (const procedure of Object.values(procedures)) {
      const meta = procedure._def.meta;
      if (!meta?.openapi) continue;
      const keyed = ["key", "partner", "business", "admin"].includes(meta.access ?? "");
      expect(operation(meta.openapi.operationId).security, meta.openapi.operationId).toEqual(keyed ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }]);
      checked += 1;
    }
    expect(checked).toBe(Object.values(document.paths as Record<string, object>).reduce((n, methods) => n + Object.keys(methods).length, 0));
    expect(operation("getPartnerFeed").security).toEqual([{ bearerAuth: [] }]);
  });

  it("documents RateLimit headers on the 200 and 429 of limited operations, and Retry-After on 429 and 503", () => {
    for (const methods of Object.values(document.paths as Record<string, Record<string, JsonBody>>)) {
      for (const op of Object.values(methods)) {
        // Admin keys count against no limit (trpc.ts): their operations document none, and no 429.
        if ((op.tags as string[]).includes("admin")) {
          expect(op.responses["429"], op.operationId).toBeUndefined();
          expect(Object.keys(op.responses["503"].headers ?? {}), op.operationId).toContain("Retry-After");
          continue;
        }
        expect(Object.keys((op.responses["200"] ?? op.responses["201"]).headers ?? {}), op.operationId).toEqual(
          expect.arrayContaining(["RateLimit", "RateLimit-Policy"]),
        );
        expect(Object.keys(op.responses["429"].headers ?? {}), op.operationId).toEqual(
          expect.arrayContaining(["RateLimit", "RateLimit-Policy", "Retry-After"]),
        );
        expect(Object.keys(op.responses["503"].headers ?? {}), op.operationId).toContain("Retry-After");
        expect(requiredFields(op.responses["429"].content["application/json"].schema)).toEqual(expect.arrayContaining(["limit", "policy", "resetAt"]));
      }
    }
    for (const name of ["RateLimit", "RateLimit-Policy", "Retry-After"]) expect(document.components.headers[name]).toBeDefined();
  });

  it("has a license, a contact and a described tag for every tag an operation uses", () => {
    expect(document.info.license).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^http/) });
    expect(document.info.contact).toMatchObject({ email: expect.stringContaining("@") });
    const declared = new Map((document.tags as { name: string; description: string }[]).map((tag) => [tag.name, tag.description]));
    for (const methods of Object.values(document.paths as Record<string, Record<string, JsonBody>>)) {
      for (const op of Object.values(methods)) for (const tag of op.tags as string[]) expect(declared.get(tag), tag).toMatch(/\w+/);
    }
  });

  it("keeps no trpc-to-openapi error components, whose names collide across operations", () => {
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith("error."))).toEqual([]);
  });
});
