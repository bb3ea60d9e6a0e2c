import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { businesses, cities } from "@directory/db";
import type {
  TAvailableCitiesOutput,
  TCompareOutput,
  TEntityProfile,
  TGetBuyerQuestionsOutput,
  TGetListicleOutput,
  TGetOffersOutput,
  TLeadStatusOutput,
  TListCategoriesOutput,
  TListing,
  TSearchCategoryOutput,
  TSearchKeywordOutput,
  TSubmitLeadOutput,
} from "@directory/api/schemas";
import { type ErrorBody, startTestServer, type TestServer } from "./testing";

/*
 * Issue 22's replay: twelve everyday agent tasks, each written once against a door and run through
 * MCP (tool calls) and through REST (the OpenAPI operations), on the demo world. A task completes
 * when the answers hold what the user asked for, reached the way an agent would reach it.
 */

/** An answer: the data, or the refusal's words (an MCP tool error's text, a REST error body). */
type Answer<T = unknown> = { ok: true; data: T } | { ok: false; message: string; body?: ErrorBody };

interface Door {
  /** T is the output of the procedure the tool calls: both doors answer with it. */
  call<T = unknown>(tool: string, args: Record<string, unknown>): Promise<Answer<T>>;
  /** Every category with its slug and active listings. */
  categories(): Promise<{ slug: string; listings: number }[]>;
}

/** Each tool's REST operation: method and path; GET arguments go in the query string. */
const REST_OPERATIONS: Record<string, { method: "GET" | "POST"; path: string }> = {
  search_businesses: { method: "GET", path: "/api/v2/category-search" },
  get_category_leaders: { method: "GET", path: "/api/v2/category-leaders" },
  search_by_keyword: { method: "GET", path: "/api/v2/keyword-search" },
  get_listicle: { method: "GET", path: "/api/v2/listicle" },
  get_available_cities: { method: "GET", path: "/api/v2/cities" },
  get_business_profile: { method: "GET", path: "/api/v2/entity-profile" },
  compare_businesses: { method: "GET", path: "/api/v2/compare" },
  get_offers: { method: "GET", path: "/api/v2/offers" },
  get_buyer_questions: { method: "GET", path: "/api/v2/buyer-questions" },
  submit_lead: { method: "POST", path: "/api/v2/leads" },
  get_lead_status: { method: "GET", path: "/api/v2/lead-status" },
};

function restDoor(baseUrl: string): Door {
  return {
    async call<T>(tool: string, args: Record<string, unknown>): Promise<Answer<T>> {
      const operation = REST_OPERATIONS[tool]!;
      const query = new URLSearchParams(Object.fromEntries(Object.entries(args).map(([name, value]) => [name, String(value)])));
      const response =
        operation.method === "GET"
          ? await fetch(`${baseUrl}${operation.path}?${query}`)
          : await fetch(`${baseUrl}${operation.path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(args) });
      const body: unknown = await response.json();
      const refusal = body as ErrorBody;
      return response.ok ? { ok: true, data: body as T } : { ok: false, message: `${refusal.error} (${refusal.code})`, body: refusal };
    },
    async categories() {
      return ((await (await fetch(`${baseUrl}/api/v2/categories`)).json()) as TListCategoriesOutput).categories;
    },
  };
}

function mcpDoor(client: Client): Door {
  return {
    async call<T>(tool: string, args: Record<string, unknown>): Promise<Answer<T>> {
      const result = await client.callTool({ name: tool, arguments: args });
      const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      return result.isError ? { ok: false, message: text } : { ok: true, data: result.structuredContent as T };
    },
    async categories() {
      const read = await client.readResource({ uri: "directory://categories" });
      const first = read.contents[0] as { text: string };
      return (JSON.parse(first.text) as TListCategoriesOutput).categories;
    },
  };
}

function data<T>(answer: Answer<T>): T {
  if (!answer.ok) throw new Error(`refused: ${answer.message}`);
  return answer.data;
}

/** Follows nextCursor until it is null; the calls made and every item seen. */
/** A page of a listing: its items under the name the tool gives them. */
type Page<Item> = Partial<Record<"businesses" | "cities", Item[]>> & { totalMatches: number; nextCursor: string | null };

async function everyPage<Item>(door: Door, tool: string, args: Record<string, unknown>, items: "businesses" | "cities") {
  const seen: Item[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  let calls = 0;
  do {
    const page: Page<Item> = data(await door.call<Page<Item>>(tool, cursor ? { ...args, cursor } : args));
    calls++;
    seen.push(...page[items]!);
    totals.add(page.totalMatches);
    cursor = page.nextCursor;
  } while (cursor && calls < 20);
  return { seen, calls, totals: [...totals] };
}

let server: TestServer;
let mcp: Client;
let doors: Record<"MCP" | "REST", Door>;

async function servableCount(category: string, city: string) {
  const [row] = await server.database.db
    .select({ matches: count() })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businesses.categorySlug, category), eq(cities.name, city), eq(businesses.status, "active")));
  return Number(row!.matches);
}

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { leadsPerAddressPerHour: 10 } });
  mcp = new Client({ name: "agent-tasks", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
  doors = { MCP: mcpDoor(mcp), REST: restDoor(server.url) };
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await server?.close();
});

describe.each(["MCP", "REST"] as const)("twelve agent tasks through %s", (doorName) => {
  const door = () => doors[doorName];

  it("1. three dentists in Mumbai, the best-rated, with their review counts", async () => {
    const answer = data(await door().call<TSearchCategoryOutput>("search_businesses", { category: "dentist", city: "Mumbai", limit: 3, sort: "rating" }));
    expect(answer.businesses).toHaveLength(3);
    const ratings = answer.businesses.map((listing) => listing.rating ?? -1);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    for (const listing of answer.businesses) expect(listing.reviewCount).toBeGreaterThanOrEqual(0);
    expect(answer.rankingModel).toMatch(/rating/i);
  });

  it("2. all doctors in Shanghai, every one reached by paging in at most 3 calls of 10", async () => {
    const expected = await servableCount("doctor", "Shanghai");
    expect(expected).toBeGreaterThan(10);
    const pages = await everyPage<TListing>(door(), "search_businesses", { category: "doctor", city: "Shanghai", limit: 10 }, "businesses");
    expect(pages.totals).toEqual([expected]);
    expect(new Set(pages.seen.map((listing) => listing.slug)).size).toBe(expected);
    expect(pages.calls).toBeLessThanOrEqual(3);
  });

  it("3. which cities have electricians, every city once", async () => {
    const pages = await everyPage<TAvailableCitiesOutput["cities"][number]>(door(), "get_available_cities", { category: "electrician", limit: 50 }, "cities");
    expect(pages.seen.length).toBe(pages.totals[0]);
    expect(new Set(pages.seen.map((city) => city.slug)).size).toBe(pages.seen.length);
    for (const city of pages.seen) expect(city.listings).toBeGreaterThan(0);
  });

  it("4. what kinds of business there are: every category named, with its listings", async () => {
    const categories = await door().categories();
    expect(categories.map((category) => category.slug)).toEqual(expect.arrayContaining(["dentist", "doctor", "electrician", "bakery"]));
    expect(categories.find((category) => category.slug === "dentist")!.listings).toBeGreaterThan(0);
  });

  it("5. a vegan bakery in Berlin open on Sunday: an answer that says which words it used", async () => {
    const answer = data(await door().call<TSearchKeywordOutput>("search_by_keyword", { query: "vegan bakery open on Sunday", limit: 5 }));
    expect(answer.matchedBy).not.toBe("all_words");
    if (answer.businesses.length > 0) expect(answer.wordsDropped.length).toBeGreaterThan(0);
    else expect(answer.matchedBy).toBe("nothing");
    // With the city in the words, the city is read from them, and the kind of business kept.
    const inBerlin = data(await door().call<TSearchKeywordOutput>("search_by_keyword", { query: "vegan bakery in berlin open on sunday", limit: 5 }));
    expect(inBerlin.city!.name).toBe("Berlin");
    for (const listing of inBerlin.businesses) expect([listing.category, listing.city]).toEqual(["Bakery", "Berlin"]);
  });

  it("6. 'dentist in bombay' and 'dentst in bombay' as words give Mumbai dentists", async () => {
    for (const query of ["dentist in bombay", "dentst in bombay"]) {
      const answer = data(await door().call<TSearchKeywordOutput>("search_by_keyword", { query, limit: 5 }));
      expect(answer.city!.name, query).toBe("Mumbai");
      expect(answer.businesses.length, query).toBeGreaterThan(0);
      for (const listing of answer.businesses) expect([listing.category, listing.city]).toEqual(["Dentist", "Mumbai"]);
    }
  });

  it("7. a misspelt category is answered with the closest one and where to list them all", async () => {
    const answer = await door().call("search_businesses", { category: "dentst", city: "Mumbai", limit: 3 });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.message).toMatch(/"dentist"/);
    expect(answer.message).toMatch(/categories/);
  });

  it("8-10. the best-rated one's profile, a comparison with the runner-up, its offers and buyer questions", async () => {
    const [first, second] = data(
      await door().call<TSearchCategoryOutput>("search_businesses", { category: "dentist", city: "Mumbai", limit: 2, sort: "rating" }),
    ).businesses;
    const profile = data(await door().call<TEntityProfile>("get_business_profile", { slug: first!.slug }));
    expect(JSON.stringify(profile)).toContain(first!.slug);
    const comparison = data(await door().call<TCompareOutput>("compare_businesses", { slugA: first!.slug, slugB: second!.slug }));
    expect(comparison.businesses.map((business) => business.slug)).toEqual([first!.slug, second!.slug]);
    const offers = data(await door().call<TGetOffersOutput>("get_offers", { slug: first!.slug }));
    expect(Array.isArray(offers.offers)).toBe(true);
    const questions = data(await door().call<TGetBuyerQuestionsOutput>("get_buyer_questions", { slug: first!.slug }));
    expect(questions.questions.length).toBeGreaterThan(0);
  });

  it("11. the best dentists of Mumbai as a listicle, and its next page, never a paid placement", async () => {
    const first = data(await door().call<TGetListicleOutput>("get_listicle", { category: "dentist", city: "Mumbai", limit: 5 }));
    expect(first.paidPlacement).toBe(false);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = data(await door().call<TGetListicleOutput>("get_listicle", { category: "dentist", city: "Mumbai", limit: 5, cursor: first.nextCursor }));
    const firstSlugs = first.businesses.map((listing) => listing.slug);
    for (const listing of second.businesses) expect(firstSlugs).not.toContain(listing.slug);
  });

  it("12. submit a consented lead and follow it: the status names the business, a replay the same one", async () => {
    const [target] = data(await door().call<TSearchCategoryOutput>("search_businesses", { category: "dentist", city: "Mumbai", limit: 1 })).businesses;
    const lead = {
      slug: target!.slug,
      contactName: "Asha Rao",
      contactEmail: "asha.rao@example.com",
      message: "Could I book a check-up next week?",
      idempotencyKey: `agent-task-${doorName}-lead`,
      consent: { userAgreedToBeContacted: true, statementShownToUser: "May this dentist contact you about your check-up?" },
    };
    const submitted = data(await door().call<TSubmitLeadOutput>("submit_lead", lead));
    expect(submitted.businessSlug).toBe(target!.slug);
    const status = data(await door().call<TLeadStatusOutput>("get_lead_status", { leadId: submitted.leadId }));
    expect(status.business).toEqual({ slug: target!.slug, name: target!.name });
    const replay = data(await door().call<TSubmitLeadOutput>("submit_lead", lead));
    expect([replay.leadId, replay.businessSlug]).toEqual([submitted.leadId, target!.slug]);
  });
});
