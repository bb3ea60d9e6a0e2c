import { createServer, type Server } from "node:http";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, claims, corrections, webhookDeliveries } from "@directory/db";
import type { TCorrectionList, TCreateWebhookOutput, TEntityProfile, TSubmitCorrectionOutput } from "@directory/api/schemas";
import { type McpAnswer, SMALL_TEST_WORLD, startTestServer, type TestServer, type ToolResult } from "./testing";

/**
 * Corrections (issue 25 item 4) on REST and MCP against a live server: the bad-input list (unknown
 * slug, unknown property, invalid value, a flood, hidden-character and oversized evidence, reading
 * another caller's status), and the loop to a superseding claim and the owner's webhook.
 */

let server: TestServer;
let receiver: Server;
let receiverUrl: string;
/** A webhook event as the receiver got it: what the tests read of it. */
interface ReceivedEvent {
  type: string;
  data: { changedProperties?: string[]; [field: string]: unknown };
}

const received: ReceivedEvent[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReceivedEvent);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;
  server = await startTestServer({ seed: SMALL_TEST_WORLD, trustProxyHops: 1, webhookWorker: { pollIntervalMs: 100 } });
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

let addressCounter = 0;
const newAddress = () => `198.51.100.${++addressCounter}`;

/** One REST call from a fresh address (or the one in headers); T is the body the test expects. */
async function rest<T = unknown>(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-forwarded-for": newAddress(), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

async function mcpTool(args: Record<string, unknown>, address = newAddress()) {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-forwarded-for": address },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "suggest_correction", arguments: args } }),
  });
  const body = (await response.json()) as McpAnswer<ToolResult<TSubmitCorrectionOutput>>;
  return { isError: body.result?.isError === true, text: JSON.stringify(body.result?.content ?? body.error), structured: body.result?.structuredContent };
}

let taken = 0;
async function business() {
  const rows = await server.database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug));
  return rows[taken++]!;
}

const rowsOf = (businessId: string) => server.database.db.select().from(corrections).where(eq(corrections.businessId, businessId));

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("POST /api/v2/corrections and suggest_correction: bad input", () => {
  it("404 unknown slug, 400 unknown property, 400 invalid value naming it: on REST and MCP, nothing written", async () => {
    const target = await business();
    const unknownSlug = { slug: "no-such-business-zz", property: "phone", value: "+41441234567", evidence: "x" };
    expect(await rest("POST", "/api/v2/corrections", unknownSlug)).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    expect(await mcpTool(unknownSlug)).toMatchObject({ isError: true, text: expect.stringMatching(/No business/) });

    const unknownProperty = { slug: target.slug, property: "shoeSize", value: 42, evidence: "x" };
    const rest400 = await rest("POST", "/api/v2/corrections", unknownProperty);
    expect(rest400).toMatchObject({ status: 400, body: { code: "INVALID_INPUT", error: expect.stringMatching(/Unknown property "shoeSize"/) } });
    expect(await mcpTool(unknownProperty)).toMatchObject({ isError: true, text: expect.stringMatching(/Unknown property/) });

    const invalid = { slug: target.slug, property: "website", value: "javascript:alert(1)", evidence: "x" };
    expect(await rest("POST", "/api/v2/corrections", invalid)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^Invalid website/) } });
    expect(await mcpTool(invalid)).toMatchObject({ isError: true, text: expect.stringMatching(/Invalid website/) });
    expect(await rowsOf(target.id)).toHaveLength(0);
  });

  it("a flood from one address gets 429 with Retry-After after 10 an hour, on REST and MCP", async () => {
    const target = await business();
    const address = "203.0.113.50";
    const body = (n: number) => ({ slug: target.slug, property: "phone", value: `+4144123456${n}`, evidence: "flood", dryRun: true });
    for (let n = 0; n < 10; n++) expect((await rest("POST", "/api/v2/corrections", body(n), { "x-forwarded-for": address })).status).toBe(201);
    const refused = await rest("POST", "/api/v2/corrections", body(0), { "x-forwarded-for": address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await mcpTool(body(1), address)).toMatchObject({ isError: true, text: expect.stringMatching(/hourly correction limit/) });
  });

  it("cleans and caps hidden-character and oversized evidence, on REST and MCP, never refusing it", async () => {
    const target = await business();
    const evidence = `See\u200B\u2066 the sign${" and more".repeat(400)}`;
    const viaRest = await rest("POST", "/api/v2/corrections", { slug: target.slug, property: "phone", value: "+41 44 000 11 22", evidence });
    expect(viaRest.status).toBe(201);
    const viaMcp = await mcpTool({ slug: target.slug, property: "phone", value: "+41 44 000 11 23", evidence });
    expect(viaMcp.isError).toBe(false);
    for (const row of await rowsOf(target.id)) {
      expect(row.evidence.startsWith("See the sign and more")).toBe(true);
      expect(row.evidence.length).toBeLessThan(1_100);
    }
  });

  it("anyone reads a correction's status; its submitter never shows", async () => {
    const target = await business();
    const submitted = await mcpTool({ slug: target.slug, property: "email", value: "info@example.org", evidence: "their website" }, "192.0.2.200");
    const id = submitted.structured!.correctionId!;
    const read = await rest("GET", `/api/v2/corrections/${id}`, undefined, { "x-forwarded-for": "192.0.2.201" });
    expect(read).toMatchObject({ status: 200, body: { correctionId: id, status: "pending", property: "email", supporters: 1 } });
    expect(JSON.stringify(read.body)).not.toMatch(/192\.0\.2\.200|submitter/);
    expect((await rest("GET", "/api/v2/corrections/00000000-0000-4000-8000-000000000000", undefined)).status).toBe(404);
  });
});

describe("the correction loop on REST", () => {
  it("two callers, an admin accepts: a superseding admin_verified claim, and the owner's webhook hears of the proposal and the change", async () => {
    const target = await business();
    const ownerKey = (await createApiKey(server.database.db, { kind: "business", businessSlug: target.slug })).key;
    const owner = { authorization: `Bearer ${ownerKey}` };
    const hook = await rest<TCreateWebhookOutput>(
      "POST",
      "/api/developers/webhooks",
      { url: receiverUrl, events: ["correction.created", "entity.updated"] },
      owner,
    );
    expect(hook.status).toBe(201);

    const proposal = {
      slug: target.slug,
      property: "phone",
      value: "+41 44 777 88 99",
      evidence: "https://example.org/new-number",
      observedAt: "2026-11-01T09:00:00Z",
    };
    const dry = await rest("POST", "/api/v2/corrections", { ...proposal, dryRun: true });
    expect(dry).toMatchObject({ status: 201, body: { correctionId: null, dryRun: true } });
    expect(await rowsOf(target.id)).toHaveLength(0);

    const first = await rest<TSubmitCorrectionOutput>("POST", "/api/v2/corrections", proposal);
    const second = await rest<TSubmitCorrectionOutput>("POST", "/api/v2/corrections", proposal);
    expect(first.status).toBe(201);
    expect(second.body.supporters).toBe(2);
    const own = await rest<TCorrectionList>("GET", "/api/v2/owner/corrections", undefined, owner);
    expect(own.body.corrections).toHaveLength(2);

    const admin = { authorization: `Bearer ${server.adminKey}` };
    const queue = await rest<TCorrectionList>("GET", "/api/v2/admin/corrections", undefined, admin);
    expect(queue.body.corrections.find((c) => c.correctionId === first.body.correctionId)).toMatchObject({ supporters: 2 });
    const accepted = await rest("POST", `/api/v2/admin/corrections/${first.body.correctionId}/accept`, {}, admin);
    expect(accepted).toMatchObject({ status: 200, body: { status: "accepted" } });
    const [current] = await server.database.db
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "phone"), isNull(claims.supersededAt)));
    expect(current).toMatchObject({ source: `correction:${first.body.correctionId}`, verification: "admin_verified", value: "+41 44 777 88 99" });
    const history = await rest<TEntityProfile>("GET", `/api/v2/entity-profile?slug=${target.slug}&history=true`, undefined, owner);
    expect(history.body.claims.some((claim) => claim.property === "phone" && claim.supersededBy === current!.id)).toBe(true);

    const created = await until("the correction.created delivery", () => received.find((event) => event.type === "correction.created") ?? undefined);
    expect(created.data).toMatchObject({ slug: target.slug, property: "phone", correctionId: expect.any(String) });
    expect(JSON.stringify(created)).not.toMatch(/submitter|198\.51\.100/);
    await until(
      "the entity.updated delivery",
      () => received.find((event) => event.type === "entity.updated" && event.data.changedProperties!.includes("phone")) ?? undefined,
    );
    const deliveries = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.body.id));
    expect(deliveries.map((d) => d.eventType).sort()).toEqual(["correction.created", "correction.created", "entity.updated"]);
  });
});
