import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, claims } from "@directory/db";
import type { TEntityProfile } from "@directory/api/schemas";
import { type ErrorBody, getJson, type OpenApiDocument, startTestServer, type TestServer, type TrpcResult } from "./testing";

/** Issue 26 item 13: one rule per input, whatever the door (history as a boolean, NUL in a path, the Bearer scheme). */

const METRICS_TOKEN = "input-rules-metrics-token-0123456789";
let server: TestServer;
let developerKey: string;
let slug: string;

beforeAll(async () => {
  server = await startTestServer({ metricsToken: METRICS_TOKEN });
  developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
  const [row] = await server.database.db
    .select({ slug: businesses.slug })
    .from(claims)
    .innerJoin(businesses, eq(businesses.id, claims.businessId))
    .where(and(isNotNull(claims.supersededAt), eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .limit(1);
  slug = row!.slug;
});
afterAll(async () => {
  await server?.close();
});

async function trpcGet(path: string, input: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as TrpcResult<TEntityProfile> };
}

async function mcpCall(method: string, params: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("history mode takes a boolean on tRPC and the strings true|false on REST", () => {
  it("tRPC getEntityProfile({history: true}) needs a key and works with one", async () => {
    const anonymous = await trpcGet("entities.getEntityProfile", { slug, history: true });
    expect(anonymous.status).toBe(401);
    const keyed = await trpcGet("entities.getEntityProfile", { slug, history: true }, { authorization: `Bearer ${developerKey}` });
    expect(keyed.status).toBe(200);
    expect(keyed.body.result.data.json.history).toBe(true);
    const off = await trpcGet("entities.getEntityProfile", { slug, history: false });
    expect(off.status).toBe(200);
    expect(off.body.result.data.json.history).toBe(false);
  });

  it("REST history=false is not history mode, history=true still needs a key, and the document shows the parameter", async () => {
    const off = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}&history=false`);
    expect(off.status).toBe(200);
    expect(off.body.history).toBe(false);
    expect((await getJson(server.url, `/api/v2/entity-profile?slug=${slug}&history=true`)).status).toBe(401);
    const on = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}&history=true`, { authorization: `Bearer ${developerKey}` });
    expect(on.body.history).toBe(true);
    const document = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    const parameters = document.body.paths["/api/v2/entity-profile"]!.get!.parameters!;
    expect(parameters.some((parameter) => parameter.name === "history" && parameter.in === "query")).toBe(true);
  });
});

describe("a control character in a path parameter is a 400 naming it, as in a query parameter", () => {
  it("refuses /business/a%00b/agent.json and /entity/a%00b with INVALID_INPUT naming the parameter, without echoing the byte", async () => {
    const cases = [
      { path: "/business/a%00b/agent.json", parameter: "slug" },
      { path: "/business/a%1fb/agent.json", parameter: "slug" },
      { path: "/business/a%7Fb/agent.json", parameter: "slug" },
      { path: "/business/a%C2%85b/agent.json", parameter: "slug" },
      { path: "/entity/a%00b?format=json", parameter: "id" },
    ];
    for (const { path, parameter } of cases) {
      const response = await fetch(`${server.url}${path}`);
      const text = await response.text();
      expect(response.status, path).toBe(400);
      const body = JSON.parse(text) as ErrorBody;
      expect(body, path).toMatchObject({ code: "INVALID_INPUT" });
      expect(body.error, path).toMatch(new RegExp(`parameter ${parameter}\\b`));
      // eslint-disable-next-line no-control-regex -- the point is that no control character comes back
      expect(text, path).not.toMatch(/[\u0000-\u001f\u007f-\u009f]|\\u00[01]|%00|%1f|%7f|%c2/i);
    }
  });

  it("still answers an ordinary missing slug with 404", async () => {
    expect((await fetch(`${server.url}/business/no-such-business/agent.json`)).status).toBe(404);
  });
});

describe("every door takes a key only as Authorization: Bearer <key>", () => {
  it("refuses a bare key with 401 and a challenge on REST, tRPC, MCP and /metrics", async () => {
    const bare = { authorization: developerKey };
    const rest = await fetch(`${server.url}/api/v2/entity-profile?slug=${slug}`, { headers: bare });
    expect(rest.status).toBe(401);
    expect(rest.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const trpc = await trpcGet("entities.getEntityProfile", { slug }, bare);
    expect(trpc.status).toBe(401);
    expect(trpc.headers.get("www-authenticate")).toMatch(/^Bearer/);
    // A tool refused for want of a valid key stays a readable result (HTTP 200), with the challenge beside it.
    const mcp = await mcpCall("tools/call", { name: "get_business_profile", arguments: { slug } }, bare);
    expect(mcp.text).toMatch(/"isError":\s*true/);
    expect(mcp.headers.get("www-authenticate")).toMatch(/^Bearer/);
    for (const value of [METRICS_TOKEN, developerKey]) {
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: value } });
      expect(metrics.status).toBe(401);
      expect(metrics.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("accepts the scheme in any case on every door", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const headers = { authorization: `${scheme} ${developerKey}` };
      expect((await getJson(server.url, `/api/v2/entity-profile?slug=${slug}&history=true`, headers)).status).toBe(200);
      expect((await trpcGet("entities.getEntityProfile", { slug, history: true }, headers)).status).toBe(200);
      const mcp = await mcpCall("tools/call", { name: "get_business_profile", arguments: { slug } }, headers);
      expect(mcp.text).not.toMatch(/isError"?:\s*true/);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `${scheme} ${METRICS_TOKEN}` } })).status).toBe(200);
    }
  });
});
