import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_CONSENT_RULE, type TLookupBusinessesOutput, type TSearchKeywordOutput } from "@directory/api/schemas";
import { businesses, cities } from "@directory/db";
import { type ErrorBody, getJson, type McpAnswer, startTestServer, type TestServer, type ToolResult, type TrpcError, type TrpcResult } from "./testing";

/*
 * Issue 42 item 5: misses that point the way, each replayed on every door that has the operation
 * (REST, tRPC, MCP's text, GraphQL, the /search page) and the hint checked where an agent reads it:
 * the error message (MCP errors reach the model as text only) or the answer's hint field and text.
 */
let server: TestServer;
let address = 0;
/** Each call from its own address, so no rate limit of one door meets another's. */
const fresh = () => ({ "x-forwarded-for": `10.42.${Math.floor(address / 250)}.${(address++ % 250) + 1}` });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function rest<T>(path: string) {
  return getJson<T & ErrorBody>(server.url, path, fresh());
}

async function restPost<T>(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...fresh() },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T & ErrorBody };
}

/** A tRPC query over HTTP: its data, or its error's message. */
async function trpc<T>(procedure: string, input: unknown): Promise<{ data?: T; message?: string }> {
  const response = await fetch(`${server.url}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers: fresh() });
  const body = (await response.json()) as TrpcResult<T> & TrpcError;
  return body.error ? { message: body.error.json.message } : { data: body.result.data.json };
}

async function trpcMutation(procedure: string, input: unknown): Promise<string | undefined> {
  const response = await fetch(`${server.url}/trpc/${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...fresh() },
    body: JSON.stringify({ json: input }),
  });
  return ((await response.json()) as TrpcError).error?.json.message;
}

/** A tool call as the model sees it: whether it failed, and its text (an error's text is all it gets). */
async function mcp(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...fresh() },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const body = (await response.json()) as McpAnswer<ToolResult>;
  if (body.error) return { isError: true, text: body.error.message };
  return { isError: body.result!.isError === true, text: body.result!.content.map((part) => part.text).join("\n") };
}

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<{ data?: T; errors?: { message: string }[] }> {
  const response = await fetch(`${server.url}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...fresh() },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: T; errors?: { message: string }[] };
}

const errorsOf = (answer: { errors?: { message: string }[] }) => (answer.errors ?? []).map((error) => error.message).join("\n");

describe("keyword search never presents a fallback as a match", () => {
  const query = "unicorn groomer";
  const said = /Nothing matches "unicorn groomer"/;

  it("REST and tRPC: nothing matched, no grocery stores, a hint naming what was tried", async () => {
    const { status, body } = await rest<TSearchKeywordOutput>(`/api/v2/keyword-search?query=${encodeURIComponent(query)}&limit=10`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ matchedBy: "nothing", businesses: [], totalMatches: 0 });
    expect(body.hint).toMatch(said);
    const { data } = await trpc<TSearchKeywordOutput>("search.searchKeyword", { query, limit: 10 });
    expect(data).toMatchObject({ matchedBy: "nothing", businesses: [] });
    expect(data!.hint).toBe(body.hint);
  });

  it("MCP text, GraphQL and the /search page say the same", async () => {
    const tool = await mcp("search_by_keyword", { query, limit: 10 });
    expect(tool.isError).toBe(false);
    expect(tool.text).toMatch(/matchedBy: nothing/);
    expect(tool.text).toMatch(said);
    const answer = await graphql<{ searchKeyword: { matchedBy: string; hint: string; total: number } }>(
      `
        query ($q: String!) {
          searchKeyword(query: $q, limit: 10) {
            matchedBy
            hint
            total
          }
        }
      `,
      { q: query },
    );
    expect(answer.data!.searchKeyword).toMatchObject({ matchedBy: "nothing", total: 0 });
    expect(answer.data!.searchKeyword.hint).toMatch(said);
    const page = await fetch(`${server.url}/search?q=${encodeURIComponent(query)}`, { headers: fresh() });
    expect(await page.text()).toMatch(/Nothing matches &quot;unicorn groomer&quot;|Nothing matches “unicorn groomer”|Nothing matches "unicorn groomer"/);
  });

  it("a partial match says which words it left out, in the hint too", async () => {
    const { body } = await rest<TSearchKeywordOutput>("/api/v2/keyword-search?query=root%20canal%20xylophone&city=Mumbai");
    expect(body).toMatchObject({ matchedBy: "some_words", wordsDropped: ["xylophone"] });
    expect(body.hint).toMatch(/left out: xylophone/);
    const tool = await mcp("search_by_keyword", { query: "root canal xylophone", city: "Mumbai" });
    expect(tool.text).toMatch(/hint: No listing matches all the words.*left out: xylophone/);
  });
});

describe("a category with more words names the known category, and a city among them", () => {
  const known = /Did you mean category "bakery"\?/;
  const city = /"mumbai" is a city: pass city "Mumbai"/;

  it.each([
    ["vegan bakery", known],
    ["dentist mumbai", city],
  ])("%s: REST, tRPC, MCP and GraphQL", async (category, hint) => {
    const lookup = await rest<unknown>(`/api/v2/businesses?category=${encodeURIComponent(category)}&city=Delhi`);
    expect(lookup.status).toBe(404);
    expect(lookup.body.error).toMatch(hint);
    const search = await rest<unknown>(`/api/v2/category-search?category=${encodeURIComponent(category)}&city=Delhi`);
    expect(search.body.error).toMatch(hint);
    expect((await trpc("search.searchCategory", { category, city: "Delhi" })).message).toMatch(hint);
    const tool = await mcp("search_businesses", { category, city: "Delhi" });
    expect(tool.isError).toBe(true);
    expect(tool.text).toMatch(hint);
    const answer = await graphql(
      `
        query ($c: String!) {
          searchCategory(category: $c, city: "Delhi") {
            total
          }
        }
      `,
      { c: category },
    );
    expect(errorsOf(answer)).toMatch(hint);
  });
});

describe("an unknown slug names the closest slugs by name", () => {
  it("REST, tRPC, MCP and GraphQL", async () => {
    const [row] = await server.database.db
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
      .orderBy(asc(businesses.slug))
      .limit(1);
    // The slug misremembered: one letter of its name dropped.
    const wrong = row!.slug.replace(/^(\w+?)\w(\w*-)/, "$1$2");
    expect(wrong).not.toBe(row!.slug);
    const closest = new RegExp(`No business found for slug "${wrong}"\\. Closest by name: [^.]*"${row!.slug}"`);
    const profile = await rest<{ suggestions: string[] }>(`/api/v2/entity-profile?slug=${wrong}`);
    expect(profile.status).toBe(404);
    expect(profile.body.error).toMatch(closest);
    expect(profile.body.suggestions).toContain(row!.slug);
    expect((await trpc("entities.getEntityProfile", { slug: wrong })).message).toMatch(closest);
    const tool = await mcp("get_business_profile", { slug: wrong });
    expect(tool.isError).toBe(true);
    expect(tool.text).toMatch(closest);
    expect(
      errorsOf(
        await graphql(
          `
            query ($s: String!) {
              entity(slug: $s) {
                slug
              }
            }
          `,
          { s: wrong },
        ),
      ),
    ).toMatch(closest);
  });
});

describe("coordinates that look swapped say so", () => {
  // Shanghai is 31.2304,121.4737: given the other way round, the latitude is out of range.
  const outOfRange = /latitude 121\.4737 .*look swapped.*did you mean "31\.2304,121\.4737"/;
  // Mumbai is 19.0760,72.8777: the other way round is a valid point in the Barents Sea.
  const inTheSea = /19\.076,72\.8777 is in Mumbai.*look swapped/;

  it("a latitude that is a valid longitude: a 400 naming the point meant, on REST, tRPC, MCP and GraphQL", async () => {
    const lookup = await rest<unknown>("/api/v2/businesses?category=dentist&near=121.4737,31.2304");
    expect(lookup.status).toBe(400);
    expect(lookup.body.error).toMatch(outOfRange);
    const near = { lat: 121.4737, lng: 31.2304 };
    expect((await trpc("search.searchCategory", { category: "dentist", near })).message).toMatch(outOfRange);
    const tool = await mcp("search_businesses", { category: "dentist", near });
    expect(tool.isError).toBe(true);
    expect(tool.text).toMatch(outOfRange);
    const answer = await graphql(
      `
        query {
          lookupBusinesses(category: "dentist", near: { lat: 121.4737, lng: 31.2304 }) {
            total
          }
        }
      `,
      {},
    );
    expect(errorsOf(answer)).toMatch(outOfRange);
  });

  it("a point in the sea that is a city the other way round: an empty answer whose hint says so", async () => {
    const lookup = await rest<TLookupBusinessesOutput>("/api/v2/businesses?category=dentist&near=72.8777,19.0760");
    expect(lookup.status).toBe(200);
    expect(lookup.body.businesses).toEqual([]);
    expect(lookup.body.hint).toMatch(inTheSea);
    const near = { lat: 72.8777, lng: 19.076 };
    expect((await trpc<TLookupBusinessesOutput>("search.searchCategory", { category: "dentist", near })).data!.hint).toMatch(inTheSea);
    expect((await mcp("search_businesses", { category: "dentist", near })).text).toMatch(inTheSea);
    expect((await mcp("search_by_keyword", { query: "dentist", near })).text).toMatch(inTheSea);
    const answer = await graphql<{ lookupBusinesses: { hint: string } }>(
      `
        query {
          lookupBusinesses(category: "dentist", near: { lat: 72.8777, lng: 19.076 }) {
            hint
          }
        }
      `,
      {},
    );
    expect(answer.data!.lookupBusinesses.hint).toMatch(inTheSea);
  });
});

describe("an empty result names the nearest cities that have the category", () => {
  it("REST, tRPC, MCP, GraphQL and keyword search", async () => {
    // A city without a servable dentist, with dentists elsewhere.
    const dentists = sql`select 1 from ${businesses} where ${businesses.cityId} = ${cities.id} and ${businesses.categorySlug} = 'dentist'`;
    const [empty] = await server.database.db
      .select({ name: cities.name })
      .from(cities)
      .where(sql`not exists (${dentists})`)
      .orderBy(sql`${cities.population} desc`)
      .limit(1);
    const nearest = /No Dentist listed in [^.]+\. Nearest cities with one: [^(]+ \(\d+ km\)/;
    const lookup = await rest<TLookupBusinessesOutput>(`/api/v2/businesses?category=dentist&city=${encodeURIComponent(empty!.name)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.businesses).toEqual([]);
    expect(lookup.body.hint).toMatch(nearest);
    const search = await trpc<TLookupBusinessesOutput>("search.searchCategory", { category: "dentist", city: empty!.name });
    expect(search.data!.hint).toBe(lookup.body.hint);
    expect((await mcp("search_businesses", { category: "dentist", city: empty!.name })).text).toContain(`hint: ${lookup.body.hint}`);
    const answer = await graphql<{ searchCategory: { hint: string } }>(
      `
        query ($c: String!) {
          searchCategory(category: "dentist", city: $c) {
            hint
          }
        }
      `,
      {
        c: empty!.name,
      },
    );
    expect(answer.data!.searchCategory.hint).toBe(lookup.body.hint);
    const page = await fetch(`${server.url}/browse?category=dentist&city=${encodeURIComponent(empty!.name)}`, { headers: fresh() });
    expect(await page.text()).toMatch(/<p class="hint">No Dentist listed in [^<]+Nearest cities with one/);
    const keyword = await rest<TSearchKeywordOutput>(`/api/v2/keyword-search?query=${encodeURIComponent(`dentist in ${empty!.name}`)}`);
    expect(keyword.body.matchedBy).toBe("nothing");
    expect(keyword.body.hint).toMatch(nearest);
  });
});

describe("a missing or invalid consent explains the rule in the error itself", () => {
  const lead = { slug: "any-business", contactEmail: "a@example.com", message: "Please call me back", idempotencyKey: "misses-consent-1" };

  it("REST, tRPC and MCP", async () => {
    const missing = await restPost("/api/v2/leads", lead);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain(LEAD_CONSENT_RULE);
    const notTrue = await restPost("/api/v2/leads", {
      ...lead,
      consent: { userAgreedToBeContacted: false, statementShownToUser: "I agree to be contacted by them" },
    });
    expect(notTrue.status).toBe(400);
    expect(notTrue.body.error).toContain(LEAD_CONSENT_RULE);
    expect(await trpcMutation("leads.submit", lead)).toContain(LEAD_CONSENT_RULE);
    const tool = await mcp("submit_lead", lead);
    expect(tool.isError).toBe(true);
    expect(tool.text).toContain(LEAD_CONSENT_RULE);
  });
});
