import { exampleSearchPair } from "./openapi-examples";
import { keyed, type Run } from "./openapi-examples-record";
import type { TListing } from "@directory/api/schemas";
import type { TestServer } from "./testing";

/** What the recorder reads of the search answer: the listings later examples name, under `results` or `businesses`. */
interface SearchAnswer {
  results?: Pick<TListing, "slug" | "id">[];
  businesses?: Pick<TListing, "slug" | "id">[];
}

/** The reads' examples: search, profiles, the partner feed, the graph; all on the demo world as seeded. */

/** Records the reads; returns the first search result, which later examples name. */
export async function recordReads(run: Run, server: TestServer): Promise<{ first: { slug: string; id: string } }> {
  const { category, city } = await exampleSearchPair(server.database);
  const search = await run<SearchAnswer>({
    operationId: "searchBusinesses",
    summary: `The first two ${category} businesses in ${city}`,
    request: { method: "GET", path: "/api/assistant-plugin", query: { category, city, limit: "2" } },
  });
  const first = search.results?.[0] ?? search.businesses?.[0];
  if (!first?.slug || !first?.id) throw new Error(`searchBusinesses: no slug and id in ${JSON.stringify(search).slice(0, 300)}`);
  await run({
    operationId: "lookupBusinesses",
    summary: `The first two ${category} businesses in ${city}`,
    request: { method: "GET", path: "/api/v2/businesses", query: { category, city, limit: "2" } },
  });
  await run({
    operationId: "listCategories",
    summary: "Every category with its synonyms and listings",
    request: { method: "GET", path: "/api/v2/categories" },
  });
  await run({
    operationId: "getEntityProfile",
    summary: `The profile of ${first.slug}`,
    request: { method: "GET", path: "/api/v2/entity-profile", query: { slug: first.slug } },
  });
  await run({
    operationId: "getEntityById",
    summary: "A business by its immutable id",
    request: { method: "GET", path: "/entity/{id}", pathParams: { id: first.id } },
  });
  await run({
    operationId: "getAgentProfile",
    summary: `The agent profile of ${first.slug}`,
    request: { method: "GET", path: "/business/{slug}/agent.json", pathParams: { slug: first.slug } },
  });
  await run({
    operationId: "getPartnerFeed",
    summary: "The first page of the partner feed, two locations",
    request: { method: "GET", path: "/api/v2/partner-feed", query: { limit: "2" }, headers: keyed("partner") },
  });
  await run({
    operationId: "exportPartnerFeed",
    summary: "The bulk export: every feed-visible location as NDJSON, then the change-feed position it is consistent with",
    request: { method: "GET", path: "/api/v2/partner-feed/export", headers: keyed("partner") },
  });
  await run({
    operationId: "getPartnerFeedChanges",
    summary: "The first two changes of the partner feed",
    request: { method: "GET", path: "/api/v2/partner-feed/changes", query: { after: "0", limit: "2" }, headers: keyed("partner") },
  });
  await run({
    operationId: "getKnowledgeGraph",
    summary: `Categories named together with ${category}`,
    request: { method: "GET", path: "/api/v2/knowledge-graph", query: { type: "complementary", category } },
  });
  await run({
    operationId: "searchCategory",
    summary: `The first two ${category} businesses in ${city}, as search_businesses answers`,
    request: { method: "GET", path: "/api/v2/category-search", query: { category, city, limit: "2" } },
  });
  await run({
    operationId: "categoryLeaders",
    summary: `The two top-ranked ${category} businesses in every city`,
    request: { method: "GET", path: "/api/v2/category-leaders", query: { category, limit: "2" } },
  });
  await run({
    operationId: "searchKeyword",
    summary: `Free text: "${category}" in ${city}`,
    request: { method: "GET", path: "/api/v2/keyword-search", query: { query: category, city, limit: "2" } },
  });
  await run({
    operationId: "getListicle",
    summary: `The best two ${category} businesses in ${city}`,
    request: { method: "GET", path: "/api/v2/listicle", query: { category, city, limit: "2" } },
  });
  await run({
    operationId: "availableCities",
    summary: `Where ${category} businesses are listed, most first`,
    request: { method: "GET", path: "/api/v2/cities", query: { category, limit: "3" } },
  });
  await run({
    operationId: "getOffers",
    summary: `The offers of ${first.slug}`,
    request: { method: "GET", path: "/api/v2/offers", query: { slug: first.slug } },
  });
  await run({
    operationId: "getBuyerQuestions",
    summary: `The buyer questions of ${first.slug}`,
    request: { method: "GET", path: "/api/v2/buyer-questions", query: { slug: first.slug } },
  });
  const second = search.results?.[1] ?? search.businesses?.[1];
  if (!second?.slug) throw new Error("searchBusinesses: fewer than two results to compare");
  await run({
    operationId: "compareBusinesses",
    summary: "The first two results side by side",
    request: { method: "GET", path: "/api/v2/compare", query: { slugA: first.slug, slugB: second.slug } },
  });
  return { first: { slug: String(first.slug), id: String(first.id) } };
}
