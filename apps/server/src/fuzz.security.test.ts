import { and, count, desc, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { atLocal } from "@directory/api/testing";
import { businesses, categories, cities } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";
import { problemsOf, summarise, type Failure } from "./fuzz/checks";
import { mcpCases, mcpTools } from "./fuzz/mcp-cases";
import { createRandom, distinctCases, type World } from "./fuzz/model";
import { pagedListings } from "./fuzz/named-values";
import { restCases, restOperations } from "./fuzz/rest-cases";
import { agent, runAll } from "./fuzz/send";
import { proceduresOf, trpcCases } from "./fuzz/trpc-cases";

/**
 * "One guard per rule, on every door": thousands of malformed requests, generated from the
 * surfaces the live server describes (OpenAPI operations, tRPC procedures, MCP tools), must each
 * get a refusal in its door's own error shape: never a 5xx, never a body that is not JSON, never a
 * stack trace or SQL text, and on REST only statuses the OpenAPI document promises. Instants
 * (openAt, asOf) outside the years 0001 to 9999, and cursors forged from real ones (offsets of
 * 2^63, businesses of other listings, edited counts), are among them (fuzz/named-values.ts).
 * Deterministic: one seeded PRNG picks every random case.
 */

const FUZZ_SEED = 0x5eed_f022;
const MIN_REQUESTS = 5_000;

let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await startTestServer({
    seed: SMALL_TEST_WORLD,
    rateLimits: {
      anonymousPerDay: 1e9,
      openPerMinute: 1e9,
      keyedPerMonth: 1e9,
      leadsPerAddressPerHour: 1e9,
      leadsPerKeyPerHour: 1e9,
      leadsPerBusinessPerDay: 1e9,
    },
  });
  const { db } = server.database;
  const [business] = await db
    .select({ id: businesses.id, slug: businesses.slug, categorySlug: businesses.categorySlug, cityId: businesses.cityId })
    .from(businesses)
    .orderBy(businesses.slug)
    .limit(1);
  const [category] = await db.select({ name: categories.name, slug: categories.slug }).from(categories).orderBy(categories.slug).limit(1);
  const [city] = await db.select({ name: cities.name }).from(cities).orderBy(cities.id).limit(1);
  if (!business || !category || !city) throw new Error("the seeded world is empty");
  // The busiest category+city pair of another category than the baselines' one: its listings have second pages to forge cursors from.
  const active = eq(businesses.status, "active");
  const [other] = await db
    .select({
      category: businesses.categorySlug,
      categoryName: categories.name,
      city: cities.name,
      lat: cities.lat,
      lng: cities.lng,
      timeZone: cities.timeZone,
    })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .where(and(active, ne(businesses.categorySlug, category.slug)))
    .groupBy(businesses.categorySlug, categories.name, cities.id)
    .orderBy(desc(count()))
    .limit(1);
  const [outsider] = await db
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(active, ne(businesses.categorySlug, other!.category)))
    .limit(1);
  const key = async (kind: "partner" | "developer" | "business") =>
    (await createApiKey(db, { kind, label: `fuzz ${kind}`, ...(kind === "business" ? { businessSlug: business.slug } : {}) })).key;
  world = {
    slug: business.slug,
    id: business.id,
    category: category.name,
    city: city.name,
    keys: { admin: server.adminKey, partner: await key("partner"), developer: await key("developer"), business: await key("business") },
    listings: await pagedListings(server.url, {
      ...other!,
      lat: Number(other!.lat),
      lng: Number(other!.lng),
      openAt: atLocal("2026-05-12T11:00:00", other!.timeZone!),
    }),
    outsiderId: outsider!.id,
  };
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
});

describe("fuzzing every door with malformed requests", () => {
  it("answers thousands of malformed REST, tRPC and MCP requests with documented, well-shaped, leak-free refusals", async () => {
    const random = createRandom(FUZZ_SEED);
    const { operations, documentedStatuses } = await restOperations(server.url);
    const procedures = proceduresOf();
    const tools = await mcpTools(server.url);
    expect(operations.length).toBeGreaterThan(0);
    expect(procedures.length).toBeGreaterThan(0);
    expect(tools.length).toBeGreaterThan(0);

    const cases = distinctCases([...restCases(operations, world, random), ...trpcCases(procedures, world, random), ...mcpCases(tools, world, random)]);
    // Interleave the doors so slow and fast cases share the workers evenly.
    for (let i = cases.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [cases[i], cases[j]] = [cases[j]!, cases[i]!];
    }
    expect(cases.length).toBeGreaterThanOrEqual(MIN_REQUESTS);

    const failures: Failure[] = [];
    const sent = { rest: 0, trpc: 0, mcp: 0 };
    const statuses = new Map<string, number>();
    const startedAt = Date.now();
    await runAll(server.url, cases, (fuzzCase, outcome) => {
      sent[fuzzCase.door]++;
      const statusKey = `${fuzzCase.door} ${outcome.status}`;
      statuses.set(statusKey, (statuses.get(statusKey) ?? 0) + 1);
      for (const problem of problemsOf(fuzzCase, outcome, documentedStatuses)) {
        failures.push({
          door: fuzzCase.door,
          method: fuzzCase.method,
          target: fuzzCase.target,
          route: fuzzCase.route,
          kind: fuzzCase.kind,
          status: outcome.status,
          problem,
          body: (outcome.error ?? outcome.text).slice(0, 200),
        });
      }
    });
    const seconds = (Date.now() - startedAt) / 1000;
    if (failures.length > 0 || process.env.FUZZ_VERBOSE) {
      const histogram = [...statuses.entries()]
        .sort()
        .map(([key, count]) => `${key}: ${count}`)
        .join(", ");
      console.warn(
        `fuzz: ${cases.length} requests (REST ${sent.rest}, tRPC ${sent.trpc}, MCP ${sent.mcp}) in ${seconds.toFixed(1)} s\nstatuses: ${histogram}\n${summarise(failures)}`,
      );
    }
    expect(sent.rest + sent.trpc + sent.mcp).toBe(cases.length);
    expect(failures.slice(0, 20), `${failures.length} failures; first 20 shown`).toEqual([]);
  }, 600_000);
});
