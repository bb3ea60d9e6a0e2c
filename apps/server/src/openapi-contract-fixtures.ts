import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, categories, cities, type ApiKeyKind } from "@directory/db";
import { createDirectoryClient } from "@directory/sdk";
import { getJson, type OpenApiDocument, type OpenApiResponse, type OpenApiSchema, type RateLimitedBody, startTestServer, type TestServer } from "./testing";

/**
 * What the OpenAPI contract tests share: one server per test file with tiny limits, its live document, an
 * active and a decommissioned business, calls from fresh addresses, and the check that an answer is documented.
 */

export let server: TestServer;
export let document: OpenApiDocument;
export let active: { id: string; slug: string; categoryName: string; cityName: string };
export let decommissioned: { id: string; slug: string };

/** Starts the server before the calling file's tests and closes it after them. */
export function useContractServer(): void {
  beforeAll(async () => {
    // Tiny limits so each 429 takes three calls; every probe comes from its own address or key.
    server = await startTestServer({ rateLimits: { anonymousPerDay: 2, openPerMinute: 2, keyedPerMonth: 2 }, trustProxyHops: 1 });
    document = (await getJson<OpenApiDocument>(server.url, "/api/openapi.json")).body;
    const candidates = await server.database.db
      .select({ id: businesses.id, slug: businesses.slug, categoryName: categories.name, cityName: cities.name })
      .from(businesses)
      .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
      .innerJoin(cities, eq(cities.id, businesses.cityId))
      .where(
        and(
          eq(businesses.status, "active"),
          sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now() + interval '1 day')`,
        ),
      )
      .orderBy(asc(businesses.id))
      .limit(2);
    const [first, second] = candidates;
    if (!first || !second) throw new Error("the seed has fewer than two active businesses");
    active = first;
    decommissioned = second;
    await createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey }).lifecycle.decommission.mutate({ slug: decommissioned.slug });
  });
  afterAll(async () => {
    await server?.close();
  });
}

let addressCounter = 0;
/** A client address no earlier request used, so anonymous limits start from zero. */
export function freshAddress(): string {
  addressCounter += 1;
  return `10.${Math.floor(addressCounter / 65_536) % 256}.${Math.floor(addressCounter / 256) % 256}.${addressCounter % 256}`;
}

export async function freshKey(kind: ApiKeyKind): Promise<string> {
  const options = kind === "business" ? { kind, businessSlug: active.slug } : { kind };
  return (await createApiKey(server.database.db, options)).key;
}

interface Call {
  key?: string;
  address?: string;
}

/** GET a path from a fresh address (or the one given), with the key if any; T is the body the test expects. */
export function call<T = unknown>(path: string, { key, address = freshAddress() }: Call = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": address };
  if (key) headers.authorization = `Bearer ${key}`;
  return getJson<T>(server.url, path, headers);
}

/** The per-minute limit starts over each minute: three calls that straddle one would all pass. */
async function clearOfMinuteBoundary(): Promise<void> {
  const untilNextMinute = 60_000 - (Date.now() % 60_000);
  if (untilNextMinute < 2_000) await new Promise((resolve) => setTimeout(resolve, untilNextMinute + 50));
}

/** The third call from one address, or with one key: over the limit of 2. */
export async function overLimit(path: string, key?: string) {
  await clearOfMinuteBoundary();
  const address = freshAddress();
  for (let i = 0; i < 2; i++) {
    const admitted = await call(path, { key, address });
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(200);
  }
  return call<RateLimitedBody>(path, { key, address });
}

interface Documented {
  path: string;
  responses: Record<string, OpenApiResponse>;
  security: unknown;
}

export function operation(operationId: string): Documented {
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const op of Object.values(methods)) if (op.operationId === operationId) return { path, responses: op.responses, security: op.security };
  }
  throw new Error(`no operation ${operationId} in the document`);
}

/** Property names a documented body schema requires, following $ref and allOf. */
export function requiredFields(schema: OpenApiSchema | undefined): string[] {
  if (schema?.$ref) return requiredFields(document.components.schemas[schema.$ref.split("/").pop()!]);
  const own = schema?.required ?? [];
  return [...own, ...(schema?.allOf ?? []).flatMap((part) => requiredFields(part))];
}

export const observed = new Map<string, Set<number>>();

/** Asserts the live answer is the expected status, documented on the operation with a fitting description. */
export function expectDocumented(operationId: string, response: { status: number; headers: Headers; body: unknown }, status: number, description: RegExp) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const documented = operation(operationId).responses[String(status)];
  expect(documented, `${operationId} does not document ${status}`).toBeDefined();
  expect(documented!.description).toMatch(description);
  if (!observed.has(operationId)) observed.set(operationId, new Set());
  observed.get(operationId)!.add(status);
  if (status >= 400) {
    expect(response.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    const schema = documented!.content?.["application/json"]?.schema;
    for (const field of requiredFields(schema)) expect(response.body, `${operationId} ${status} lacks documented field ${field}`).toHaveProperty(field);
  }
  for (const header of ["RateLimit", "RateLimit-Policy", "Retry-After"]) {
    if (response.headers.get(header) !== null) {
      expect(Object.keys(documented!.headers ?? {}), `${operationId} ${status} sends ${header} undocumented`).toContain(header);
    }
  }
}

export const BAD_KEY = "bdk_developer_0000000000000000000000000000000000";
export const LONG = "x".repeat(260);
export const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";
