import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, DEFAULT_RATE_LIMITS } from "@directory/api";
import { businesses, webhookDeliveries, webhooks } from "@directory/db";
import { createDirectoryClient } from "@directory/sdk";
import { type Api, type ErrorBody, SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/** A real receiver on loopback whose answer each test scripts. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const logLines: string[] = [];
let answer: (delivery: Received, index: number) => number = () => 204;

let server: TestServer;
let developerKey: string;
let otherKey: string;
let slugs: string[];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(delivery);
      res.statusCode = answer(delivery, received.length - 1);
      res.end("receiver says hello");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;
  server = await startTestServer({
    seed: SMALL_TEST_WORLD,
    logDestination: { write: (line: string) => void logLines.push(line) },
    webhookWorker: { settings: { retryDelaysMs: [50, 50, 50, 50], attemptTimeoutMs: 2_000 }, pollIntervalMs: 100 },
  });
  developerKey = (await createApiKey(server.database.db, { kind: "developer", label: "hooks" })).key;
  otherKey = (await createApiKey(server.database.db, { kind: "developer", label: "someone else" })).key;
  const rows = await server.database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(sql`status = 'active' and subscription_expires_at is null`)
    .orderBy(businesses.slug)
    .limit(5);
  slugs = rows.map((row) => row.slug);
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

async function rest<T = unknown>(method: string, path: string, key: string | null, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(method === "GET" ? {} : { "content-type": "application/json" }) },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, text };
}

async function register(key = developerKey, url = receiverUrl) {
  const created = await rest<Api.TCreateWebhookOutput>("POST", "/api/developers/webhooks", key, { url, events: ["entity.updated"] });
  expect(created.status).toBe(201);
  return created.body;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const admin = () => createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });

/** A real entity.updated for this webhook (an admin rename): retries are for events, a test send is tried once. */
async function realDelivery(hookId: string, slug: string): Promise<{ id: string; eventId: string }> {
  await admin().lifecycle.rename.mutate({ slug, name: `Renamed ${Date.now()}` });
  return until("the event's delivery", async () => {
    const [delivery] = await server.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, hookId), eq(webhookDeliveries.eventType, "entity.updated")));
    return delivery ? { id: delivery.id, eventId: delivery.eventId } : undefined;
  });
}

describe("webhook registration", () => {
  it("returns the secret once, with whsec_ and at least 24 random bytes, and never stores or shows it again", async () => {
    const created = await register();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(created.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const listed = await rest("GET", "/api/developers/webhooks", developerKey);
    const read = await rest("GET", `/api/developers/webhooks/${created.id}`, developerKey);
    expect(listed.text + read.text).not.toContain(created.secret.slice(6, 30));
    const rows = await server.database.db.execute(sql`select * from webhooks`);
    expect(JSON.stringify(rows)).not.toContain(created.secret.slice(6, 30));
    await rest("POST", `/api/developers/webhooks/${created.id}/test`, developerKey);
    await until("the test delivery", () => received.find((r) => r.body.includes(created.id)));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("")).not.toContain(created.secret.slice(6, 30));
    await rest("DELETE", `/api/developers/webhooks/${created.id}`, developerKey);
  });

  it("refuses bad input with 400s that name the problem, and no key with 401", async () => {
    const cases: [unknown, RegExp][] = [
      [{ events: ["entity.updated"] }, /url/],
      [{ url: "ftp://example.com/x", events: ["entity.updated"] }, /url/],
      [{ url: receiverUrl, events: ["entity.deleted"] }, /events/],
      [{ url: receiverUrl, events: [] }, /events/],
      [{ url: receiverUrl, events: ["lead.created"] }, /lead\.created/],
      [{ url: "http://10.0.0.5/hook", events: ["entity.updated"] }, /private|address/],
      [{ url: "http://169.254.169.254/latest", events: ["entity.updated"] }, /url/],
    ];
    for (const [body, problem] of cases) {
      const { status, body: error } = await rest<ErrorBody>("POST", "/api/developers/webhooks", developerKey, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(error.error).toMatch(problem);
    }
    expect((await rest("POST", "/api/developers/webhooks", null, { url: receiverUrl, events: ["entity.updated"] })).status).toBe(401);
  });

  it("keeps each key's webhooks to itself: another key sees, resends and deletes nothing", async () => {
    const created = await register();
    for (const [method, path] of [
      ["GET", `/api/developers/webhooks/${created.id}`],
      ["POST", `/api/developers/webhooks/${created.id}/test`],
      ["POST", `/api/developers/webhooks/${created.id}/rotate-secret`],
      ["POST", `/api/developers/webhooks/${created.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`],
      ["DELETE", `/api/developers/webhooks/${created.id}`],
    ] as const) {
      const { status, body } = await rest<ErrorBody>(method, path, otherKey);
      expect(status, `${method} ${path}`).toBe(404);
      expect(body.code).toBe("NOT_FOUND");
    }
    expect((await rest<Api.TListWebhooksOutput>("GET", "/api/developers/webhooks", otherKey)).body.total).toBe(0);
    expect((await rest("DELETE", `/api/developers/webhooks/${created.id}`, developerKey)).status).toBe(200);
  });
});

describe("webhook delivery", () => {
  it("delivers a rename within seconds, signed so that an independent HMAC and the standardwebhooks library both verify", async () => {
    const hook = await register();
    answer = () => 204;
    const from = received.length;
    const started = Date.now();
    await admin().lifecycle.rename.mutate({ slug: slugs[0]!, name: "Renamed For Webhooks" });
    const delivery = await until("the rename event", () => received.slice(from).find((r) => r.body.includes("Renamed For Webhooks")));
    expect(delivery.at - started).toBeLessThan(5_000);

    const event = JSON.parse(delivery.body) as { id: string; type: string; data: { links: { entity: string } } };
    expect(event).toMatchObject({ type: "entity.updated", data: { slug: slugs[0], name: "Renamed For Webhooks", changedProperties: ["name"] } });
    expect(event.data.links.entity).toMatch(/\/entity\/[0-9a-f-]+\?format=json$/);
    expect(delivery.headers["webhook-id"]).toBe(event.id);

    const expected = createHmac("sha256", hook.secret).update(delivery.body).digest("hex");
    expect(delivery.headers["x-service-signature"]).toBe(expected);
    const verifier = new Webhook(hook.secret.slice("whsec_".length));
    const headers = {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    };
    expect(verifier.verify(delivery.body, headers)).toMatchObject({ id: event.id });
    // Tampered body or an old timestamp: refused.
    expect(() => verifier.verify(delivery.body.replace("Renamed", "Renamex"), headers)).toThrow();
    expect(() => verifier.verify(delivery.body, { ...headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 3600) })).toThrow();
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, developerKey);
  });

  it("retries a receiver that fails 4 times and succeeds on the 5th, keeping the same webhook-id", async () => {
    const hook = await register();
    const failures = new Map<string, number>();
    answer = (delivery) => {
      const id = String(delivery.headers["webhook-id"]);
      const seen = (failures.get(id) ?? 0) + 1;
      failures.set(id, seen);
      return seen <= 4 ? 503 : 200;
    };
    const test = { body: await realDelivery(hook.id, slugs[2]!) };
    const row = await until("five attempts ending in success", async () => {
      const [delivery] = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, test.body.id));
      return delivery?.status === "succeeded" ? delivery : undefined;
    });
    expect(row.attempts).toBe(5);
    expect(received.filter((r) => r.headers["webhook-id"] === test.body.eventId)).toHaveLength(5);
    const detail = await rest<Api.TGetWebhookOutput>("GET", `/api/developers/webhooks/${hook.id}`, developerKey);
    expect(detail.body.deliveries[0]!.attemptLog.map((a) => a.statusCode)).toEqual([503, 503, 503, 503, 200]);
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, developerKey);
  });

  it("gives up after exactly 5 attempts, keeps the failed delivery, and sends it again on request", async () => {
    const hook = await register();
    answer = () => 500;
    const test = { body: await realDelivery(hook.id, slugs[3]!) };
    const failed = await until("a failed delivery", async () => {
      const [delivery] = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, test.body.id));
      return delivery?.status === "failed" ? delivery : undefined;
    });
    expect(failed.attempts).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(received.filter((r) => r.headers["webhook-id"] === test.body.eventId)).toHaveLength(5);

    answer = () => 200;
    const again = await rest("POST", `/api/developers/webhooks/${hook.id}/deliveries/${test.body.id}/retry`, developerKey);
    expect(again.status).toBe(200);
    await until("the resent delivery", async () => {
      const [delivery] = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, test.body.id));
      return delivery?.status === "succeeded" ? delivery : undefined;
    });
    expect(received.filter((r) => r.headers["webhook-id"] === test.body.eventId)).toHaveLength(6);
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, developerKey);
  });

  it("tries a test send once, never again, and limits test sends and redeliveries per key", async () => {
    const { key } = await createApiKey(server.database.db, { kind: "developer", label: "test sends" });
    const hook = await register(key);
    answer = () => 500;
    const test = await rest<Api.TDelivery>("POST", `/api/developers/webhooks/${hook.id}/test`, key);
    const failed = await until("the failed test delivery", async () => {
      const [delivery] = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, test.body.id));
      return delivery?.status === "failed" ? delivery : undefined;
    });
    expect(failed.attempts).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(received.filter((r) => r.headers["webhook-id"] === test.body.eventId)).toHaveLength(1);
    answer = () => 204;
    for (let sent = 1; sent < DEFAULT_RATE_LIMITS.webhookSendsPerKeyPerHour; sent++) {
      expect((await rest("POST", `/api/developers/webhooks/${hook.id}/test`, key)).status).toBe(200);
    }
    const refused = await rest<ErrorBody>("POST", `/api/developers/webhooks/${hook.id}/deliveries/${test.body.id}/retry`, key);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/webhook test sends and redeliveries/);
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, key);
  });

  it("disables a webhook whose receiver answers 410, says why, and can be enabled again", async () => {
    const hook = await register();
    answer = () => 410;
    await rest("POST", `/api/developers/webhooks/${hook.id}/test`, developerKey);
    const disabled = await until("the webhook disabled", async () => {
      const [row] = await server.database.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
      return row?.status === "disabled" ? row : undefined;
    });
    expect(disabled.disabledReason).toMatch(/410/);
    const enabled = await rest<Api.TWebhook>("POST", `/api/developers/webhooks/${hook.id}/enable`, developerKey);
    expect(enabled.body).toMatchObject({ status: "active", disabledReason: null });
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, developerKey);
  });

  it("takes a POST without a body as an empty one (curl -X POST), and still refuses a body that is not JSON", async () => {
    const hook = await register();
    const bare = await fetch(`${server.url}/api/developers/webhooks/${hook.id}/rotate-secret`, {
      method: "POST",
      headers: { authorization: `Bearer ${developerKey}` },
    });
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as { secret: string }).secret).toMatch(/^whsec_/);
    const typed = await fetch(`${server.url}/api/developers/webhooks/${hook.id}/rotate-secret`, {
      method: "POST",
      headers: { authorization: `Bearer ${developerKey}`, "content-type": "text/plain" },
      body: "rotate",
    });
    expect(typed.status).toBe(415);
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, developerKey);
  });

  it("signs with both secrets during a rotation", async () => {
    const hook = await register();
    answer = () => 200;
    const rotated = await rest<Api.TRotateWebhookSecretOutput>("POST", `/api/developers/webhooks/${hook.id}/rotate-secret`, developerKey);
    expect(rotated.status).toBe(200);
    const test = await rest<Api.TDelivery>("POST", `/api/developers/webhooks/${hook.id}/test`, developerKey);
    const delivery = await until("the test event", () => received.find((r) => r.headers["webhook-id"] === test.body.eventId));
    const headers = {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    };
    for (const secret of [hook.secret, rotated.body.secret]) {
      expect(() => new Webhook(secret.slice("whsec_".length)).verify(delivery.body, headers)).not.toThrow();
    }
    expect(delivery.headers["x-service-signature"]).toBe(createHmac("sha256", rotated.body.secret).update(delivery.body).digest("hex"));
    await rest("DELETE", `/api/developers/webhooks/${hook.id}`, developerKey);
  });
});
