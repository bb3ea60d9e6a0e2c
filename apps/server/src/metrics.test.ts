import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@directory/api";
import type { Database } from "@directory/db";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMetrics, policyOf } from "./metrics";
import { getJson, startTestServer, type TestServer } from "./testing";

const TOKEN = "metrics-test-token-0123456789";
const LIMITS = { anonymousPerDay: 3 };

let server: TestServer;
let unconfigured: TestServer;
const logLines: string[] = [];
/** A webhook receiver on loopback answering with receiverStatus. */
let receiver: Server;
let receiverUrl: string;
let receiverStatus = 200;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(receiverStatus).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;
  server = await startTestServer({
    metricsToken: TOKEN,
    rateLimits: LIMITS,
    logDestination: { write: (line: string) => void logLines.push(line) },
    webhookWorker: { settings: { retryDelaysMs: [60_000, 60_000, 60_000, 60_000], attemptTimeoutMs: 2_000 }, pollIntervalMs: 100 },
  });
  unconfigured = await startTestServer({ database: server.database });
});
afterAll(async () => {
  await unconfigured?.close();
  await server?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

/** Samples of the Prometheus text format: `name{labels} value` lines, labels parsed. */
function parseSamples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape() {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  return parseSamples(await response.text());
}

function valueOf(samples: ReturnType<typeof parseSamples>, name: string, labels: Record<string, string>): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe("/metrics", () => {
  it("is refused without the token or an admin key, and open to an admin key where no token is configured", async () => {
    const missing = await getJson(server.url, "/metrics");
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="directory"');
    expect(missing.body).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await getJson(server.url, "/metrics", { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await getJson(server.url, "/metrics", { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await getJson(unconfigured.url, "/metrics", { authorization: `Bearer ${TOKEN}` })).status).toBe(401);
    const { key: developer } = await createApiKey(server.database.db, { kind: "developer" });
    const refused = await getJson(unconfigured.url, "/metrics", { authorization: `Bearer ${developer}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "FORBIDDEN" });
    const scraped = await fetch(`${unconfigured.url}/metrics`, { headers: { authorization: `Bearer ${unconfigured.adminKey}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^# HELP directory_http_requests_total/m);
  });

  it("counts requests per route and procedure, tool calls by tool and outcome, and 429s by policy", async () => {
    const before = await scrape();
    const route = { name: "directory_http_requests_total", labels: { method: "GET", route: "/api/v2/entity-profile", status: "404" } };
    expect((await getJson(server.url, "/api/v2/entity-profile?slug=no-such-business")).status).toBe(404);
    const client = new Client({ name: "metrics-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
    const ok = await client.callTool({ name: "get_available_cities", arguments: { category: "dentist" } });
    expect(ok.isError).toBeFalsy();
    const refused = await client.callTool({ name: "get_my_visibility_score", arguments: {} });
    expect(refused.isError).toBe(true);
    await client.close();
    // The anonymous daily limit: lookups pass until it is used up, then one 429 of policy anonymous-daily.
    let last = 0;
    for (let i = 0; i <= LIMITS.anonymousPerDay && last !== 429; i++) last = (await getJson(server.url, "/api/v2/entity-profile?slug=no-such-business")).status;
    expect(last).toBe(429);

    const after = await scrape();
    expect(valueOf(after, route.name, route.labels) - valueOf(before, route.name, route.labels)).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "directory_procedure_requests_total", { procedure: "entities.getEntityProfile", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "directory_http_request_duration_seconds_count", { method: "GET", route: "/api/v2/entity-profile" })).toBeGreaterThanOrEqual(2);
    expect(valueOf(after, "directory_mcp_tool_calls_total", { tool: "get_available_cities", outcome: "ok" })).toBe(1);
    expect(valueOf(after, "directory_mcp_tool_calls_total", { tool: "get_my_visibility_score", outcome: "error" })).toBe(1);
    expect(
      valueOf(after, "directory_rate_limit_refusals_total", { policy: "anonymous-daily" }) -
        valueOf(before, "directory_rate_limit_refusals_total", { policy: "anonymous-daily" }),
    ).toBe(1);
    expect(valueOf(after, "directory_database_up", {})).toBe(1);
    expect(valueOf(after, "directory_database_info", { driver: server.database.driver })).toBe(1);
    expect(after.some((sample) => sample.name === "directory_database_ping_seconds" && sample.value >= 0)).toBe(true);

    // The log says which JSON-RPC method and tool ran, and that an isError result is an error.
    const mcpLines = logLines
      .map((line) => JSON.parse(line) as { msg: string; mcp?: { method?: string; methods?: string[]; tool?: string; isError?: boolean } })
      .filter((line) => line.mcp);
    expect(mcpLines).toContainEqual(
      expect.objectContaining({ msg: "mcp tool call", mcp: expect.objectContaining({ method: "tools/call", tool: "get_available_cities", isError: false }) }),
    );
    expect(mcpLines).toContainEqual(
      expect.objectContaining({
        msg: "mcp tool call",
        mcp: expect.objectContaining({ method: "tools/call", tool: "get_my_visibility_score", isError: true, errorStatus: 401 }),
      }),
    );
    expect(mcpLines).toContainEqual(expect.objectContaining({ msg: "mcp request", mcp: { methods: ["initialize"] } }));
  });

  it("counts the in-server worker's webhook delivery attempts by outcome", async () => {
    const key = (await createApiKey(server.database.db, { kind: "developer", label: "metrics hooks" })).key;
    const post = (path: string, body: unknown = {}) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = await post("/api/developers/webhooks", { url: receiverUrl, events: ["entity.updated"] });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const attempts = async (outcome: string) => valueOf(await scrape(), "directory_webhook_delivery_attempts_total", { outcome });
    const waitFor = async (outcome: string, atLeast: number) => {
      for (let i = 0; i < 100 && (await attempts(outcome)) < atLeast; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await attempts(outcome)).toBeGreaterThanOrEqual(atLeast);
    };
    receiverStatus = 200;
    expect((await post(`/api/developers/webhooks/${id}/test`)).status).toBeLessThan(300);
    await waitFor("delivered", 1);
    receiverStatus = 500;
    expect((await post(`/api/developers/webhooks/${id}/test`)).status).toBeLessThan(300);
    await waitFor("failed", 1);
  });

  it("measures the database at the scrape that asks: up from the first scrape, down at once when it fails", async () => {
    let answering = true;
    let pings = 0;
    const database = {
      driver: "pglite",
      ping: async () => {
        pings++;
        if (!answering) throw new Error("connection refused");
      },
    } as unknown as Database;
    const metrics = createMetrics({ database, defaultMetrics: false });
    const scrapeOf = async () => parseSamples(await metrics.registry.metrics());
    const first = await scrapeOf();
    expect(valueOf(first, "directory_database_up", {})).toBe(1);
    expect(valueOf(first, "directory_database_ping_seconds", {})).toBeGreaterThanOrEqual(0);
    expect(pings).toBe(1);
    answering = false;
    const failed = await scrapeOf();
    expect(valueOf(failed, "directory_database_up", {})).toBe(0);
    expect(valueOf(failed, "directory_database_ping_seconds", {})).toBe(-1);
    answering = true;
    expect(valueOf(await scrapeOf(), "directory_database_up", {})).toBe(1);
    expect(pings).toBe(3);
  });

  it("names no gauge `..._total` (Prometheus reserves the suffix for counters; promtool check metrics)", async () => {
    const exposition = await createMetrics().registry.metrics();
    const gauges = [...exposition.matchAll(/^# TYPE (\S+) gauge$/gm)].map((match) => match[1]);
    expect(gauges).toContain("nodejs_active_handles");
    expect(gauges.filter((name) => name!.endsWith("_total"))).toEqual([]);
  });

  it("keeps one registry per app instance and counts webhook attempts by outcome", async () => {
    const first = createMetrics({ defaultMetrics: false });
    const second = createMetrics({ defaultMetrics: false });
    first.webhookAttempt(true);
    first.webhookAttempt(false);
    first.webhookAttempt(false);
    const samples = parseSamples(await first.registry.metrics());
    expect(valueOf(samples, "directory_webhook_delivery_attempts_total", { outcome: "delivered" })).toBe(1);
    expect(valueOf(samples, "directory_webhook_delivery_attempts_total", { outcome: "failed" })).toBe(2);
    expect(valueOf(parseSamples(await second.registry.metrics()), "directory_webhook_delivery_attempts_total", {})).toBe(0);
    expect(policyOf('"anonymous-daily";q=500;w=86400')).toBe("anonymous-daily");
    expect(policyOf(undefined)).toBeNull();
  });
});

describe("the request log", () => {
  it("names a lead or correction route, or a tRPC call, without its query string: a person's details sent in a URL stay out of the log", async () => {
    const personal = "contactEmail=jane.doe%40example.com&contactName=Jane%20Doe";
    const input = encodeURIComponent(JSON.stringify({ contactEmail: "jane.doe@example.com" }));
    for (const path of [`/api/v2/leads?${personal}`, `/api/v2/corrections?${personal}`, `/trpc/leads.submit?input=${input}`, "/api/v2/cities?limit=2"])
      await fetch(`${server.url}${path}`);
    const loggedUrls = () =>
      logLines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter((url): url is string => url !== undefined);
    // A request is logged when its response finishes, which may come after the client has read it.
    await vi.waitFor(() =>
      expect(loggedUrls()).toEqual(
        expect.arrayContaining(["/api/v2/leads?[redacted]", "/api/v2/corrections?[redacted]", "/trpc/leads.submit?[redacted]", "/api/v2/cities?limit=2"]),
      ),
    );
    const urls = loggedUrls();
    expect(urls.join("\n")).not.toMatch(/jane/i);
    // Elsewhere the query is what says which request it was, and it stays (the cities line above).
  });
});
