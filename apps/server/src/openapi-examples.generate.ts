import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { and, count, desc, eq, asc } from "drizzle-orm";
import { businesses, categories, cities } from "@directory/db";
import {
  createExampleKeys,
  exampleOwnBusiness,
  keyPlaceholder,
  prepareExample,
  sendExample,
  trimResponse,
  volatilePaths,
  type ExampleRequest,
  type ExamplesFile,
  type KeyKind,
  type OperationExample,
} from "./openapi-examples";
import { startTestServer, type JsonBody, type TestServer } from "./testing";

/**
 * Records packages/api/src/openapi-examples.json: one example per REST operation, called on a
 * server over the demo world (the deterministic seed at test size, what startTestServer serves).
 * The calls run twice, on two fresh servers: what differs between the runs (ids of webhooks,
 * secrets, times) is marked volatile, so api-reference.test.ts compares it by type only.
 *
 *   npx -y pnpm@10.34.8 --filter @directory/server examples:generate
 */

const OUTPUT = fileURLToPath(new URL("../../../packages/api/src/openapi-examples.json", import.meta.url));
const WEBHOOK_URL = "https://93.184.215.14/hooks/directory";

interface Step {
  operationId: string;
  summary: string;
  request: ExampleRequest;
}

interface Recorded extends Step {
  status: number;
  response: unknown;
}

function keyed(kind: KeyKind): Record<string, string> {
  return { Authorization: keyPlaceholder(kind) };
}

/** The category and city with the most active businesses: a search that shows a full page. */
async function busiestPair(server: TestServer): Promise<{ category: string; city: string }> {
  const [pair] = await server.database.db
    .select({ category: categories.slug, city: cities.name, n: count() })
    .from(businesses)
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businesses.status, "active")))
    .groupBy(categories.slug, cities.name)
    .orderBy(desc(count()), asc(categories.slug), asc(cities.name))
    .limit(1);
  if (!pair) throw new Error("the demo world has no active business");
  return pair;
}

async function record(server: TestServer): Promise<Recorded[]> {
  const keys = await createExampleKeys(server.database);
  const recorded: Recorded[] = [];
  const run = async (step: Step): Promise<JsonBody> => {
    await prepareExample(step.operationId, step.request, server.database);
    const { status, body } = await sendExample(server.url, step.request, keys);
    if (status < 200 || status > 299) throw new Error(`${step.operationId}: ${status} ${JSON.stringify(body)}`);
    recorded.push({ ...step, status, response: body });
    return body;
  };

  const { category, city } = await busiestPair(server);
  const search = await run({
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
  // The lead goes to the business the example business key owns, so that key can move it on.
  const own = await exampleOwnBusiness(server.database);
  const lead = await run({
    operationId: "submitLead",
    summary: `A lead to ${own}, with the user's consent`,
    request: {
      method: "POST",
      path: "/api/v2/leads",
      body: {
        slug: own,
        contactName: "Asha Rao",
        contactEmail: "asha.rao@example.com",
        message: "Could I book a check-up next week?",
        idempotencyKey: "example-lead-0001",
        consent: { userAgreedToBeContacted: true, statementShownToUser: `May ${own} contact you about your request?` },
      },
    },
  });
  await run({
    operationId: "getLeadStatus",
    summary: "The status of that lead",
    request: { method: "GET", path: "/api/v2/lead-status", query: { leadId: String(lead.leadId) } },
  });
  await run({
    operationId: "transitionLead",
    summary: "The business marks the lead contacted",
    request: { method: "POST", path: "/api/v2/owner/leads/transition", headers: keyed("business"), body: { leadId: String(lead.leadId), status: "contacted" } },
  });
  // Two corrections of the example business's phone: one accepted, one rejected.
  const correction = (phone: string) => ({
    method: "POST" as const,
    path: "/api/v2/corrections",
    body: { slug: own, property: "phone", value: phone, evidence: "The number on the shop's door, seen today" },
  });
  const proposed = await run({
    operationId: "submitCorrection",
    summary: `A correction of ${own}'s phone, with its evidence`,
    request: correction("+91 22 4000 9876"),
  });
  const correctionId = (body: JsonBody) => ({ id: String(body.correctionId) });
  await run({
    operationId: "getCorrectionStatus",
    summary: "The public status of that correction",
    request: { method: "GET", path: "/api/v2/corrections/{id}", pathParams: correctionId(proposed) },
  });
  await run({
    operationId: "getMyCorrections",
    summary: "The corrections proposed on the key's own listing",
    request: { method: "GET", path: "/api/v2/owner/corrections", headers: keyed("business") },
  });
  await run({
    operationId: "listCorrections",
    summary: "The corrections waiting for a decision",
    request: { method: "GET", path: "/api/v2/admin/corrections", headers: keyed("admin") },
  });
  await run({
    operationId: "rejectCorrection",
    summary: "An admin rejects the second proposal",
    // prepareExample proposes the phone this rejects (one submitCorrection example, two decisions).
    request: { method: "POST", path: "/api/v2/admin/corrections/{id}/reject", headers: keyed("admin"), pathParams: { id: "" } },
  });
  await run({
    operationId: "acceptCorrection",
    summary: "An admin accepts the first: its phone becomes the current claim",
    request: { method: "POST", path: "/api/v2/admin/corrections/{id}/accept", headers: keyed("admin"), pathParams: correctionId(proposed) },
  });
  await run({
    operationId: "getMyVisibilityScore",
    summary: "The business's own scores",
    request: { method: "GET", path: "/api/v2/owner/visibility", headers: keyed("business") },
  });
  await run({
    operationId: "getMyCitations",
    summary: "The business's two latest AI-platform checks",
    request: { method: "GET", path: "/api/v2/owner/citations", query: { limit: "2" }, headers: keyed("business") },
  });
  await run({ operationId: "getAgentDiscovery", summary: "The discovery manifest", request: { method: "GET", path: "/api/agent-discovery" } });
  await run({
    operationId: "getAgenticGateway",
    summary: "The handshake of an agent with a developer key",
    request: { method: "GET", path: "/api/agentic-gateway", query: { agent: "acme-assistant/2.1" }, headers: keyed("developer") },
  });

  const webhooks = { method: "POST", path: "/api/developers/webhooks", headers: keyed("developer") } as const;
  const created = await run({
    operationId: "createWebhook",
    summary: "Register a webhook for entity.updated",
    request: { ...webhooks, body: { url: WEBHOOK_URL, events: ["entity.updated"] } },
  });
  const id = { id: String(created.id) };
  await run({ operationId: "listWebhooks", summary: "This key's webhooks", request: { ...webhooks, method: "GET" } });
  const delivery = await run({
    operationId: "sendWebhookTest",
    summary: "Queue a test event",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/test", pathParams: id },
  });
  await run({
    operationId: "getWebhook",
    summary: "The webhook with its deliveries",
    request: { ...webhooks, method: "GET", path: "/api/developers/webhooks/{id}", pathParams: id },
  });
  await run({
    operationId: "rotateWebhookSecret",
    summary: "A new signing secret",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/rotate-secret", pathParams: id },
  });
  await run({
    operationId: "redeliverWebhook",
    summary: "Send a failed delivery again",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/deliveries/{deliveryId}/retry", pathParams: { ...id, deliveryId: String(delivery.id) } },
  });
  await run({
    operationId: "enableWebhook",
    summary: "Enable the webhook again",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/enable", pathParams: id },
  });
  await run({
    operationId: "deleteWebhook",
    summary: "Delete the webhook",
    request: { ...webhooks, method: "DELETE", path: "/api/developers/webhooks/{id}", pathParams: id },
  });

  await run({
    operationId: "updateListing",
    summary: "The owner corrects its phone and tagline with its business key",
    request: {
      method: "PATCH",
      path: "/api/v2/owner/listing",
      headers: keyed("business"),
      body: { phone: "+91 22 4000 1234", tagline: "Open on Sundays" },
    },
  });
  await run({
    operationId: "verifyClaim",
    summary: `An admin verifies the phone of ${first.slug}`,
    request: { method: "POST", path: "/api/v2/admin/claims/verify", headers: keyed("admin"), body: { slug: first.slug, property: "phone" } },
  });
  const unclaimed = await firstUnclaimed(server);
  await run({
    operationId: "verifyOwner",
    summary: `An admin verifies the owner of ${unclaimed}`,
    request: { method: "POST", path: "/api/v2/admin/businesses/verify-owner", headers: keyed("admin"), body: { slug: unclaimed } },
  });
  await run({
    operationId: "unverifyOwner",
    summary: `An admin withdraws the owner verification of ${unclaimed} again (it leaves the partner feed: a remove no_longer_verified)`,
    request: { method: "POST", path: "/api/v2/admin/businesses/unverify-owner", headers: keyed("admin"), body: { slug: unclaimed } },
  });
  await run({
    operationId: "addBusiness",
    summary: "An admin adds a business",
    request: {
      method: "POST",
      path: "/api/v2/admin/businesses",
      headers: keyed("admin"),
      body: { name: "Harbour Light Dental", category: "dentist", city: "mumbai-in", phone: "+91 22 4000 5678", website: "https://harbour-light.example" },
    },
  });
  return recorded;
}

/** An unclaimed active listing, the same in every demo world. */
async function firstUnclaimed(server: TestServer): Promise<string> {
  const [row] = await server.database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "unclaimed")))
    .orderBy(asc(businesses.slug))
    .limit(1);
  if (!row) throw new Error("the demo world has no unclaimed active business");
  return row.slug;
}

async function recordOnFreshServer(): Promise<Recorded[]> {
  const server = await startTestServer();
  try {
    return await record(server);
  } finally {
    await server.close();
  }
}

const [first, second] = [await recordOnFreshServer(), await recordOnFreshServer()];
const operations: Record<string, OperationExample> = {};
for (const [i, step] of first.entries()) {
  const other = second[i]!;
  const response = trimResponse(step.response);
  operations[step.operationId] = {
    summary: step.summary,
    request: step.request,
    status: step.status,
    response,
    volatile: [...volatilePaths(response, trimResponse(other.response))].sort(),
  };
}
const file: ExamplesFile = {
  $comment:
    "Generated by apps/server/src/openapi-examples.generate.ts from the demo world; checked by apps/server/src/api-reference.test.ts. Do not edit by hand.",
  operations,
};
const text = `${JSON.stringify(file, null, 2)}\n`;
writeFileSync(OUTPUT, text);
console.warn(`wrote ${OUTPUT}: ${first.length} operations, ${(text.length / 1024).toFixed(1)} KiB`);
