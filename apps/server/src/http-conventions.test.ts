import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TLookupBusinessesOutput } from "@directory/api/schemas";
import { type ErrorBody, type McpAnswer, startTestServer, type TestServer, type ToolResult } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

let server: TestServer;
/** The category and city with the most servable businesses: long enough to page through. */
let category: string;
let city: string;
let matches: number;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The body parsed; T is what the test expects it to be. */
const json = <T = unknown>(response: RawResponse): T => JSON.parse(response.body.toString("utf8")) as T;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { anonymousPerDay: 100_000, openPerMinute: 100_000 } });
  const result: unknown = await server.database.db.execute(sql`
    select c.name as category, ci.name as city, count(*)::int as n
    from businesses b join categories c on c.slug = b.category_slug join cities ci on ci.id = b.city_id
    where b.status = 'active' and (b.subscription_expires_at is null or b.subscription_expires_at > now())
    group by c.name, ci.name, ci.id order by n desc, ci.id limit 1`);
  const rows = ((result as { rows?: unknown }).rows ?? result) as { category: string; city: string; n: number }[];
  ({ category, city, n: matches } = rows[0]!);
});
afterAll(async () => {
  await server?.close();
});

const lookup = (extra = "") => `/api/v2/businesses?category=${encodeURIComponent(category)}&city=${encodeURIComponent(city)}${extra}`;

describe("compression", () => {
  it("sends gzip and brotli by Accept-Encoding, decoding to the identity body; small bodies stay as they are", async () => {
    const path = lookup("&limit=50");
    const identity = await raw(path, { headers: { "accept-encoding": "identity" } });
    const gzip = await raw(path, { headers: { "accept-encoding": "gzip" } });
    const brotli = await raw(path, { headers: { "accept-encoding": "br" } });
    expect(identity.status).toBe(200);
    expect(identity.body.length).toBeGreaterThan(1024);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(gunzipSync(gzip.body)).toEqual(identity.body);
    expect(brotliDecompressSync(brotli.body)).toEqual(identity.body);
    expect(String(gzip.headers.vary)).toMatch(/Accept-Encoding/i);

    const small = await raw("/healthz", { headers: { "accept-encoding": "gzip, br" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    const page = await raw("/", { headers: { "accept-encoding": "br" } });
    if (page.status === 200 && Number(page.headers["content-length"] ?? 2000) >= 1024) expect(page.headers["content-encoding"]).toBe("br");
  });
});

describe("Cache-Control", () => {
  it("is public for anonymous reads and private, no-store with a key, for errors and for writes", async () => {
    const anonymous = await raw(lookup());
    expect(anonymous.headers["cache-control"]).toBe("public, max-age=60");
    expect(String(anonymous.headers.vary)).toMatch(/Authorization/i);
    const keyed = await raw(lookup(), { headers: { authorization: `Bearer ${server.adminKey}` } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers["cache-control"]).toBe("private, no-store");
    expect(keyed.headers.etag).toBeUndefined();

    for (const path of [
      "/api/openapi.json",
      "/llms.txt",
      "/.well-known/ai-plugin.json",
      `/api/assistant-plugin?category=${encodeURIComponent(category)}&city=${encodeURIComponent(city)}`,
    ]) {
      const response = await raw(path);
      expect(response.status, path).toBe(200);
      expect(response.headers["cache-control"], path).toBe("public, max-age=60");
    }
    expect((await raw("/api/v2/businesses?category=nonexistent-thing&city=Nowhere")).headers["cache-control"]).toBe("no-store");
    expect((await raw("/api/v2/partner-feed")).headers["cache-control"]).toBe("no-store");
    expect((await raw("/healthz")).headers["cache-control"]).toBe("no-store");
    const write = await raw("/api/v2/businesses", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(write.headers["cache-control"]).toBe("no-store");
    // tRPC GETs follow the procedure's access class too.
    const input = encodeURIComponent(JSON.stringify({ json: { category, city } }));
    const trpc = await raw(`/trpc/search.lookupBusinesses?input=${input}`);
    expect(trpc.status).toBe(200);
    expect(trpc.headers["cache-control"]).toBe("public, max-age=60");
    const trpcKeyed = await raw(`/trpc/feed.getPartnerFeed?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, {
      headers: { authorization: `Bearer ${server.adminKey}` },
    });
    expect(trpcKeyed.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("ETag", () => {
  it("answers If-None-Match with 304 and no body on REST, tRPC and express routes", async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { category, city } }));
    for (const path of [lookup(), `/trpc/search.lookupBusinesses?input=${input}`, "/api/openapi.json", "/llms.txt"]) {
      for (const encoding of ["identity", "gzip"]) {
        const first = await raw(path, { headers: { "accept-encoding": encoding } });
        const etag = first.headers.etag as string;
        expect(etag, path).toMatch(/^W\/"/);
        const second = await raw(path, { headers: { "accept-encoding": encoding, "if-none-match": etag } });
        expect(second.status, path).toBe(304);
        expect(second.body.length).toBe(0);
        expect(second.headers.etag).toBe(etag);
        const changed = await raw(path, { headers: { "accept-encoding": encoding, "if-none-match": 'W/"other"' } });
        expect(changed.status).toBe(200);
        expect(changed.body.length).toBeGreaterThan(0);
      }
    }
  });
});

describe("HEAD", () => {
  it("answers REST routes like GET, headers and Content-Length included, without a body", async () => {
    for (const path of [lookup(), "/api/v2/businesses?category=nonexistent-thing&city=Nowhere", "/api/v2/businesses?limit=0"]) {
      const get = await raw(path, { headers: { "accept-encoding": "identity" } });
      const head = await raw(path, { method: "HEAD", headers: { "accept-encoding": "identity" } });
      expect(head.status, path).toBe(get.status);
      expect(head.body.length).toBe(0);
      expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
      expect(Number(head.headers["content-length"])).toBe(get.body.length);
      expect(head.headers["cache-control"]).toBe(get.headers["cache-control"]);
      expect(head.headers.etag).toBe(get.headers.etag);
    }
  });
});

describe("WWW-Authenticate", () => {
  it("goes with every 401 (REST, tRPC) and every refusal for want of a valid key (GraphQL, MCP); invalid_token when a key was given", async () => {
    const rest = await raw("/api/v2/partner-feed");
    expect(rest.status).toBe(401);
    expect(rest.headers["www-authenticate"]).toBe('Bearer realm="directory"');
    expect(json<ErrorBody>(rest)).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    const badKey = await raw("/api/v2/partner-feed", { headers: { authorization: "Bearer dir_not_a_real_key" } });
    expect(badKey.status).toBe(401);
    expect(badKey.headers["www-authenticate"]).toBe('Bearer realm="directory", error="invalid_token"');

    const trpc = await raw(`/trpc/feed.getPartnerFeed?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`);
    expect(trpc.status).toBe(401);
    expect(trpc.headers["www-authenticate"]).toBe('Bearer realm="directory"');

    const graphql = await raw("/api/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer dir_not_a_real_key" },
      body: JSON.stringify({ query: `{ lookupBusinesses(category: ${JSON.stringify(category)}, city: ${JSON.stringify(city)}) { total } }` }),
    });
    expect(json<GraphqlResponse>(graphql).errors?.[0]?.extensions?.status).toBe(401);
    expect(graphql.headers["www-authenticate"]).toBe('Bearer realm="directory", error="invalid_token"');

    // MCP: a tool refused with 401 stays a readable tool error (HTTP 200), with the challenge beside it.
    const mcp = await raw("/api/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer dir_not_a_real_key" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_available_cities", arguments: { category } } }),
    });
    expect(mcp.status).toBe(200);
    expect(json<McpAnswer<ToolResult>>(mcp).result).toMatchObject({ isError: true });
    expect(mcp.headers["www-authenticate"]).toBe('Bearer realm="directory", error="invalid_token"');
    const anonymousTool = await raw("/api/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "get_my_visibility_score", arguments: {} } }),
    });
    expect(anonymousTool.status).toBe(200);
    expect(anonymousTool.headers["www-authenticate"]).toBe('Bearer realm="directory"');
    const allowedTool = await raw("/api/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_available_cities", arguments: { category } } }),
    });
    expect(allowedTool.status).toBe(200);
    expect(allowedTool.headers["www-authenticate"]).toBeUndefined();
  });
});

describe("CORS", () => {
  it("answers preflights on public routes and exposes the rate-limit and request-id headers", async () => {
    const preflight = await raw(lookup(), {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    const get = await raw(lookup(), { headers: { origin: "https://agent.example" } });
    const exposed = String(get.headers["access-control-expose-headers"]).toLowerCase();
    for (const header of ["ratelimit", "ratelimit-policy", "retry-after", "x-request-id"]) expect(exposed.split(/\s*,\s*/)).toContain(header);
  });

  it("lets a partner's browser page read the feed with its key (no credentials), and keeps keyed writes closed", async () => {
    const headers = { origin: "https://partner.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" };
    const feed = await raw("/api/v2/partner-feed", { method: "OPTIONS", headers });
    expect(feed.headers["access-control-allow-origin"]).toBe("*");
    expect(feed.headers["access-control-allow-credentials"]).toBeUndefined();
    const webhooks = await raw("/api/developers/webhooks", { method: "OPTIONS", headers: { ...headers, "access-control-request-method": "POST" } });
    expect(webhooks.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("lets browser MCP clients from an allowed origin in, and refuses a foreign origin as before", async () => {
    const origin = "http://localhost:5173";
    const preflight = await raw("/api/mcp", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization, mcp-session-id, mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
    const allowed = String(preflight.headers["access-control-allow-headers"]).toLowerCase();
    for (const header of ["content-type", "authorization", "mcp-session-id", "mcp-protocol-version", "last-event-id"]) expect(allowed).toContain(header);
    const post = await raw("/api/mcp", {
      method: "POST",
      headers: { origin, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(post.status).toBe(200);
    expect(post.headers["access-control-allow-origin"]).toBe(origin);
    expect(String(post.headers["access-control-expose-headers"])).toMatch(/Mcp-Session-Id/);

    const foreign = await raw("/api/mcp", { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    const foreignPost = await raw("/api/mcp", { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
    expect(foreignPost.status).toBe(403);
  });
});

describe("GET /api/v2/businesses pages with a cursor", () => {
  it("pages to the end in ranking order, without duplicates, totalMatches counting every match", async () => {
    expect(matches).toBeGreaterThan(3);
    expect(matches).toBeLessThanOrEqual(50);
    const whole = json<TLookupBusinessesOutput>(await raw(lookup("&limit=50")));
    expect(whole.totalMatches).toBe(matches);
    expect(whole.total).toBe(whole.businesses.length);
    expect(whole.nextCursor).toBeNull();
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: TLookupBusinessesOutput = json<TLookupBusinessesOutput>(
        await raw(lookup(`&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)),
      );
      expect(page.totalMatches).toBe(matches);
      expect(page.total).toBe(page.businesses.length);
      ids.push(...page.businesses.map((business) => business.id));
      cursor = page.nextCursor;
      // The cursor names the last row by id only: its internal score never leaves the service.
      if (cursor) expect(JSON.parse(Buffer.from(cursor, "base64url").toString())).toEqual([page.businesses.at(-1)!.id, matches, expect.any(String)]);
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBe(Math.ceil(matches / 3));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(whole.businesses.map((business) => business.id));
  });

  it("refuses a bad cursor, or one from another listing, with 400 { error, code }", async () => {
    for (const cursor of [
      "garbage",
      Buffer.from("[1,2]").toString("base64url"),
      Buffer.from(JSON.stringify(["00000000-0000-0000-0000-000000000000", 1, "x"])).toString("base64url"),
    ]) {
      const response = await raw(lookup(`&cursor=${encodeURIComponent(cursor)}`));
      expect(response.status).toBe(400);
      expect(json<ErrorBody>(response)).toEqual({ error: expect.stringMatching(/cursor/), code: "INVALID_INPUT" });
    }
    const first = json<TLookupBusinessesOutput>(await raw(lookup("&limit=1")));
    const other = await raw(`/api/v2/businesses?category=${encodeURIComponent(category)}&city=Mumbai&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([400, 404]).toContain(other.status);
    if (other.status === 400) expect(json<ErrorBody>(other).code).toBe("INVALID_INPUT");
  });
});
