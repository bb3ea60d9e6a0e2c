import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { and, count, desc, eq, asc } from "drizzle-orm";
import { businesses, categories, cities } from "@directory/db";
import {
  createExampleKeys,
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
    operationId: "getKnowledgeGraph",
    summary: `Categories named together with ${category}`,
    request: { method: "GET", path: "/api/v2/knowledge-graph", query: { type: "complementary", category } },
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
  return recorded;
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
