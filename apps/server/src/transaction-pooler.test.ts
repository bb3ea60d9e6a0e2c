import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { createTestDatabase, type TestDatabase } from "@directory/api/testing";
import { businesses, rowsOf } from "@directory/db";
import { startPgBouncer, type PgBouncer } from "@directory/db/testing-pgbouncer";
import { serverUnderTest } from "./testing";

/**
 * The service behind a real PgBouncer in transaction mode (Debian's 1.18, which keeps no prepared
 * statement across transactions), configured as an operator would: DATABASE_URL the pooler,
 * DATABASE_POOLER=transaction, DATABASE_DIRECT_URL the database itself (docs/operations.md, "Behind
 * a connection pooler"). Two server connections for the server's pool of ten, so concurrent
 * requests really share them: a named prepared statement, or a startup parameter PgBouncer does not
 * know, fails here. PostgreSQL only (TEST_DATABASE_URL).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** A request through a pooler that mixes up prepared statements can hang: fail it well before the test's timeout. */
const REQUEST_TIMEOUT_MS = 15_000;
type RunningServer = Awaited<ReturnType<typeof serverUnderTest.modules.startServer>>;

let database: TestDatabase;
let pooler: PgBouncer;
let running: RunningServer;
let receiver: Server;
let receiverUrl = "";
const received: { type: string; data: { slug?: string; changedProperties?: string[] } }[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), "directory-pooler-"));
let adminKey = "";

beforeAll(async () => {
  if (!onPostgres) return;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as (typeof received)[number]);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  database = await createTestDatabase();
  pooler = await startPgBouncer(database.url!, { poolSize: 2, statementTimeoutMs: 3_000 });
  const { startServer, readConfig } = serverUnderTest.modules;
  running = await startServer(
    readConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DEMO_SEED: "off",
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
      DATABASE_URL: pooler.url,
      DATABASE_POOLER: "transaction",
      DATABASE_DIRECT_URL: database.url,
      WEBHOOK_ALLOW_LOOPBACK: "true",
    }),
  );
  adminKey = readFileSync(path.join(dataDir, "admin.key"), "utf8").trim();
});

afterAll(async () => {
  await running?.close();
  await pooler?.stop();
  await database?.destroy();
  if (receiver) await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

async function getJson<T>(pathAndQuery: string, key?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${running.url}${pathAndQuery}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, body: (response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text) as T };
}

async function send<T>(method: string, pathAndQuery: string, key: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${running.url}${pathAndQuery}`, {
    method,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}; PgBouncer said:\n${pooler.output().slice(-2_000)}`);
}

interface Listings {
  businesses: { slug: string }[];
}

describe.skipIf(!onPostgres)("the service behind PgBouncer 1.18 in transaction mode", () => {
  it("answers searches (category, keyword, near a point) and profiles, many at once on two server connections", async () => {
    const searches = [
      "/api/v2/category-search?category=dentist&city=Mumbai",
      "/api/v2/keyword-search?query=root%20canal&city=Mumbai",
      "/api/v2/keyword-search?query=dentst",
      "/api/v2/businesses?category=dentist&near=19.0760,72.8777&radiusKm=25&sort=distance",
      "/api/v2/businesses?category=dentist&city=Mumbai&limit=20",
    ];
    const first = await getJson<Listings>(searches[0]!);
    expect(first.status).toBe(200);
    const slugs = first.body.businesses.map((listing) => listing.slug).slice(0, 3);
    expect(slugs.length).toBeGreaterThan(0);
    const paths = [...searches, ...slugs.map((slug) => `/api/v2/entity-profile?slug=${slug}`)];
    // Rounds of every path at once: more clients than the pooler has server connections.
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all([...paths, ...paths].map((one) => getJson<Listings & { name?: string }>(one)));
      for (const [index, answer] of answers.entries()) {
        expect(answer.status, `${[...paths, ...paths][index]}: ${JSON.stringify(answer.body)}`).toBe(200);
      }
      expect(answers.filter((answer) => answer.body.businesses?.length === 0)).toEqual([]);
    }
  });

  it("writes through it (a webhook, a keyed correction under its advisory lock, its acceptance), and the worker hears of them", async () => {
    const [target] = await database.db
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
      .orderBy(asc(businesses.slug))
      .limit(1);
    const ownerKey = (await createApiKey(database.db, { kind: "business", businessSlug: target!.slug })).key;
    const developerKeys = await Promise.all([1, 2].map(async () => (await createApiKey(database.db, { kind: "developer" })).key));
    const hook = await send<{ id: string }>("POST", "/api/developers/webhooks", ownerKey, { url: receiverUrl, events: ["entity.updated"] });
    expect(hook.status).toBe(201);

    const proposal = { slug: target!.slug, property: "phone", value: "+41 44 777 88 99", evidence: "https://example.org/new-number" };
    // A retry racing its first submission serialises on the proposal's pg_advisory_xact_lock and gets the same correction.
    const submit = (key: string) => send<{ correctionId: string; supporters: number }>("POST", "/api/v2/corrections", key, proposal);
    const [first, retry] = await Promise.all([submit(developerKeys[0]!), submit(developerKeys[0]!)]);
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body.correctionId).toBe(first.body.correctionId);
    const another = await submit(developerKeys[1]!);
    expect(another.body.supporters).toBe(2);
    const accepted = await send("POST", `/api/v2/admin/corrections/${first.body.correctionId}/accept`, adminKey, {});
    expect(accepted).toMatchObject({ status: 200, body: { status: "accepted" } });

    const profile = await getJson<{ telephone?: string }>(`/api/v2/entity-profile?slug=${target!.slug}`);
    expect(JSON.stringify(profile.body)).toContain("+41 44 777 88 99");
    await until("the entity.updated delivery", () =>
      received.find((event) => event.type === "entity.updated" && event.data.changedProperties?.includes("phone")),
    );
  });

  it("streams the partner export (COPY inside its transaction) while searches run, and the change feed continues from its end", async () => {
    const partnerKey = (await createApiKey(database.db, { kind: "partner" })).key;
    const [exported] = await Promise.all([
      getJson<string>("/api/v2/partner-feed/export", partnerKey),
      ...Array.from({ length: 6 }, () => getJson("/api/v2/keyword-search?query=plumber")),
    ]);
    expect(exported.status).toBe(200);
    const lines = exported.body.trimEnd().split("\n");
    const last = JSON.parse(lines.pop()!) as { after: number; count: number };
    expect(last.count).toBe(lines.length);
    expect(lines.length).toBeGreaterThan(100);

    // A business partners see (owner-verified): its change reaches the feed.
    const targetId = (JSON.parse(lines[0]!) as { identifier: string }).identifier;
    const [target] = await database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, targetId));
    const correction = { slug: target!.slug, property: "phone", value: "+41 44 555 66 77", evidence: "https://example.org/moved" };
    const developerKey = (await createApiKey(database.db, { kind: "developer" })).key;
    const submitted = await send<{ correctionId: string }>("POST", "/api/v2/corrections", developerKey, correction);
    expect(submitted.status).toBe(201);
    expect((await send("POST", `/api/v2/admin/corrections/${submitted.body.correctionId}/accept`, adminKey, {})).status).toBe(200);
    const changes = await getJson<{ changes: { action: string; location?: { identifier: string } }[] }>(
      `/api/v2/partner-feed/changes?after=${last.after}`,
      partnerKey,
    );
    expect(changes.status).toBe(200);
    expect(changes.body.changes.map((change) => change.location?.identifier)).toContain(targetId);
  });

  it("listens on the direct connection, and each pooled connection has the statement timeout PgBouncer's connect_query sets", async () => {
    const heard: string[] = [];
    const unlisten = await running.database.listen("pooler_test", () => heard.push("notified"));
    await database.db.execute(sql`select pg_notify('pooler_test', '')`);
    await until("the notification", () => heard[0]);
    await unlisten();
    const timeouts = await Promise.all(Array.from({ length: 4 }, () => running.database.db.execute(sql`show statement_timeout`)));
    expect(timeouts.map((result) => rowsOf<{ statement_timeout: string }>(result)[0]!.statement_timeout)).toEqual(["3s", "3s", "3s", "3s"]);
  });
});
