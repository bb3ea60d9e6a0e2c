import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "./context";
import { restRouter } from "./root";
import { createTestDatabase, type TestDatabase } from "./testing";
import type { AccessClass, DirectoryMeta } from "./procedures/meta";

/**
 * Structural guards: whatever procedure is added, on whatever door it will be served, it was made
 * with a builder that declares its access class and runs the input gate first.
 */
const ACCESS_CLASSES: readonly AccessClass[] = [
  "open",
  "anonymous-daily",
  "lead-submission",
  "correction-submission",
  "key",
  "partner",
  "business",
  "admin",
  "session",
  "sign-in",
];

type AnyProcedure = { _def: { meta?: DirectoryMeta; type: "query" | "mutation" | "subscription" } };
/** restRouter holds every procedure: appRouter's (tRPC, MCP, GraphQL) and the REST-only partner export. */
const procedures = Object.entries(restRouter._def.procedures as unknown as Record<string, AnyProcedure>);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

describe("every procedure", () => {
  it("declares one access class, set by the builder it was made with", () => {
    expect(procedures.length).toBeGreaterThan(20);
    for (const [path, procedure] of procedures) {
      expect(ACCESS_CLASSES, `${path} has no access class: make it with a builder from procedures/builders.ts`).toContain(procedure._def.meta?.access);
    }
  });

  it("says who may cache its answers: anyone for open and anonymous-daily reads (entity profiles but in history mode), no one for the rest", () => {
    for (const [path, procedure] of procedures) {
      const { access, cache, openapi } = procedure._def.meta ?? {};
      if (procedure._def.type === "mutation" && (access === "open" || access === "anonymous-daily")) {
        expect(cache, `${path} is a write: nobody caches its answer`).toBe("private");
        continue;
      }
      if (openapi?.operationId === "getEntityProfile" || openapi?.operationId === "getEntityById") {
        expect(typeof cache === "function" && [cache({ history: "true" }), cache({ history: "false" }), cache({})], path).toEqual([
          "private",
          "public",
          "public",
        ]);
      } else {
        expect(cache, path).toBe(access === "open" || access === "anonymous-daily" ? "public" : "private");
      }
    }
  });

  it("passes the input gate before anything else: a NUL in any parameter is a 400 naming it", async () => {
    const caller = restRouter.createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", clientIp: "203.0.113.9" }));
    for (const [path] of procedures) {
      const call = path.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], caller) as (input: unknown) => Promise<unknown>;
      const error = await call({ probe: "a\u0000b" }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error, path).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code, path).toBe("BAD_REQUEST");
      expect((error as TRPCError).message, path).toMatch(/Invalid parameter probe: .*U\+0000/);
    }
  });
});
