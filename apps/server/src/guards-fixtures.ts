import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { businesses, leads } from "@directory/db";
import { type McpAnswer, SMALL_TEST_WORLD, startTestServer, type TestServer, type ToolResult } from "./testing";

/**
 * What the guard tests share: one server per test file with small limits, fresh addresses, and calls through each door.
 * The tests check the findings, each through the real server on every door it concerns: REST, tRPC (raw
 * HTTP, as any client sends it), MCP (JSON-RPC over Streamable HTTP) and the HTML pages. Every
 * test speaks from an address of its own (one trusted proxy hop), so limits do not leak between tests.
 */

export const LIMITS = { anonymousPerDay: 5, openPerMinute: 3, leadsPerAddressPerHour: 2, leadsPerKeyPerHour: 2, leadsPerBusinessPerDay: 4 };

export let server: TestServer;
export let slugs: string[];
export let country: Map<string, string>;
export const logLines: string[] = [];

/** Starts the server before the calling file's tests and closes it after them. */
export function useGuardsServer(): void {
  beforeAll(async () => {
    server = await startTestServer({
      seed: SMALL_TEST_WORLD,
      trustProxyHops: 1,
      rateLimits: LIMITS,
      logDestination: { write: (line: string) => void logLines.push(line) },
    });
    const rows = await server.database.db
      .select({ slug: businesses.slug, country: businesses.country })
      .from(businesses)
      .where(sql`status = 'active' and subscription_expires_at is null`)
      .orderBy(businesses.slug)
      .limit(24);
    slugs = rows.map((row) => row.slug);
    country = new Map(rows.map((row) => [row.slug, row.country]));
  });
  afterAll(async () => {
    await server?.close();
  });
}

let addressCounter = 0;
/** A fresh client address (TEST-NET-2), so each scenario starts with full buckets. */
export const newAddress = () => `198.51.100.${++addressCounter}`;

function trpcUrl(path: string, input?: unknown, batch = false) {
  const query = input === undefined ? "" : `?${batch ? "batch=1&" : ""}input=${encodeURIComponent(JSON.stringify(input))}`;
  return `${server.url}/trpc/${path}${query}`;
}

/** One tRPC query over raw HTTP; T is the answer the test expects (a TrpcResult or a TrpcError). */
export async function trpcQuery<T = unknown>(path: string, input: unknown, address: string) {
  const response = await fetch(trpcUrl(path, { json: input }), { headers: { "x-forwarded-for": address } });
  return { status: response.status, body: (await response.json()) as T };
}

/** One tRPC mutation over raw HTTP; T is the answer the test expects (a TrpcResult or a TrpcError). */
export async function trpcMutation<T = unknown>(path: string, input: unknown, headers: Record<string, string>) {
  const response = await fetch(`${server.url}/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ json: input }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** One tools/call over stateless Streamable HTTP; returns the JSON-RPC response. */
export async function mcpTool(name: string, args: Record<string, unknown>, address: string) {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-forwarded-for": address },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  return { status: response.status, body: (await response.json()) as McpAnswer<ToolResult> };
}

export const mcpText = (body: McpAnswer<ToolResult>) => JSON.stringify(body.result?.content ?? body.error ?? body);

export const consent = () => ({ userAgreedToBeContacted: true, statementShownToUser: "I agree that this business may contact me about my enquiry." });
let leadCounter = 0;
export function leadFor(slug: string, overrides: Record<string, unknown> = {}) {
  leadCounter += 1;
  return {
    slug,
    contactName: "Asha Rao",
    contactEmail: "asha@example.com",
    message: "Do you have time on Saturday?",
    idempotencyKey: `guard-lead-${leadCounter}`,
    consent: consent(),
    ...overrides,
  };
}

export async function leadCount() {
  const [row] = await server.database.db.select({ n: count() }).from(leads);
  return row!.n;
}
