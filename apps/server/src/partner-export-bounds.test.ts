import { request as httpRequest, type IncomingMessage } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { rowsOf } from "@directory/db";
import { getJson, startTestServer, type TestServer } from "./testing";

/*
 * The export's bounds on a real server: a reader below the minimum rate is cut, an export is cut at
 * its maximum duration, a cut frees the slot and ends the snapshot, and the export has no tRPC door.
 * The servers run with small bounds (a one-second rate window) so that each case takes seconds.
 * The documents are padded (trailing spaces are valid JSON) so the export outgrows the sockets'
 * buffers: a reader that stops reading stops taking it.
 */

const EXPORT = "/api/v2/partner-feed/export";
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A one-second window at 1 MB/s: a paused reader is cut within two windows, and a full read of the padded export takes a fraction of one. */
const RATE_BOUNDS = { rateWindowMs: 1_000, minBytesPerSecond: 1_000_000, maxDurationMs: 60_000 };
/** No rate check: only the maximum duration cuts. */
const DURATION_BOUNDS = { rateWindowMs: 1_000, minBytesPerSecond: 0, maxDurationMs: 1_500 };

/** The partner keys' monthly quota, to read what a call charged from the RateLimit header. */
const MONTHLY_QUOTA = 50;

let rateBound: TestServer;
let durationBound: TestServer;

beforeAll(async () => {
  rateBound = await startTestServer({ partnerExports: RATE_BOUNDS, rateLimits: { keyedPerMonth: MONTHLY_QUOTA } });
  durationBound = await startTestServer({ database: rateBound.database, partnerExports: DURATION_BOUNDS });
  await rateBound.database.db.execute(sql`update feed_documents set document = document || repeat(' ', 40000)`);
});
afterAll(async () => {
  await durationBound?.close();
  await rateBound?.close();
});

const newPartnerKey = async () => (await createApiKey(rateBound.database.db, { kind: "partner" })).key;

/** A raw GET whose body is left unread (paused) until the caller reads it. */
function openPaused(server: TestServer, path: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, server.url), { headers }, (response) => {
      response.pause();
      resolve(response);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Reads the rest of a response: its text, and whether it ended whole or was cut. */
function readRest(response: IncomingMessage): Promise<{ text: string; whole: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (whole: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ text: Buffer.concat(chunks).toString("utf8"), whole });
    };
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => settle(response.complete));
    response.on("error", () => settle(false));
    response.on("close", () => settle(response.complete));
    response.resume();
  });
}

const lastLineOf = (text: string) => text.trimEnd().split("\n").pop() ?? "";

/** The export's last line says where the change feed continues; a cut export has none. */
const endsWithPosition = (text: string) => /^\{"after":\d+,"count":\d+,"attributions":\[.*\]\}$/.test(lastLineOf(text));

/** Polls a GET of the export with `key` until it is served (200, read whole) or `withinMs` passes; the last status seen. */
async function exportServedWithin(server: TestServer, key: string, withinMs: number): Promise<number> {
  const until = Date.now() + withinMs;
  let status = 0;
  for (;;) {
    const response = await openPaused(server, EXPORT, bearer(key));
    status = response.statusCode ?? 0;
    const { text, whole } = await readRest(response);
    if (status === 200 && whole && endsWithPosition(text)) return status;
    if (Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Backends of the test database still in an export's snapshot (idle in its transaction, or running
 * its COPY), polled for a second: the connection is dropped as the cut starts, the rollback follows.
 */
async function exportBackends(): Promise<number> {
  const until = Date.now() + 1_000;
  for (;;) {
    const [row] = rowsOf<{ backends: number }>(
      await rateBound.database.db.execute(sql`select count(*)::int as backends from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and (state like 'idle in transaction%' or (state = 'active' and query like 'copy (select document from feed_documents%'))`),
    );
    const backends = row?.backends ?? -1;
    if (backends === 0 || Date.now() > until) return backends;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a partner export below the minimum read rate", () => {
  it("is cut (no last line), its slot is freed and its snapshot is ended", async () => {
    const key = await newPartnerKey();
    const paused = await openPaused(rateBound, EXPORT, bearer(key));
    expect(paused.statusCode).toBe(200);
    // The key is served again once the stalled export is cut: within two windows (the first may fill
    // the sockets' buffers, the second takes nothing), with slack for a loaded machine.
    expect(await exportServedWithin(rateBound, key, 10_000)).toBe(200);
    const cut = await readRest(paused);
    expect(cut.whole).toBe(false);
    expect(endsWithPosition(cut.text)).toBe(false);
    if (onPostgres) expect(await exportBackends()).toBe(0);
  }, 20_000);
});

describe("a partner export at its maximum duration", () => {
  it("is cut however it reads, and frees its slot", async () => {
    const key = await newPartnerKey();
    const opened = Date.now();
    const paused = await openPaused(durationBound, EXPORT, bearer(key));
    expect(paused.statusCode).toBe(200);
    expect(await exportServedWithin(durationBound, key, 10_000)).toBe(200);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(DURATION_BOUNDS.maxDurationMs - 50);
    const cut = await readRest(paused);
    expect(cut.whole).toBe(false);
    expect(endsWithPosition(cut.text)).toBe(false);
    if (onPostgres) expect(await exportBackends()).toBe(0);
  }, 20_000);
});

/*
 * Four exports at once, each holding a connection: on PostgreSQL only (PGlite serves one
 * connection, so the second export's key check waits for the first export).
 */
describe.skipIf(!onPostgres)("four paused exports (PostgreSQL)", () => {
  it("lock a fifth partner out only until the rate window cuts them", async () => {
    const hogs = await Promise.all([1, 2, 3, 4].map(() => newPartnerKey()));
    const paused = await Promise.all(hogs.map((key) => openPaused(rateBound, EXPORT, bearer(key))));
    expect(paused.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    const fifth = await newPartnerKey();
    const refused = await getJson(rateBound.url, EXPORT, bearer(fifth));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await exportServedWithin(rateBound, fifth, 5_000)).toBe(200);
    const hogsRead = await Promise.all(paused.map(readRest));
    expect(hogsRead.map((read) => read.whole)).toEqual([false, false, false, false]);
    expect(await exportBackends()).toBe(0);
  }, 20_000);
});

describe("the export's OpenAPI description", () => {
  it("states this server's bounds, for partners to read at the rate it needs", async () => {
    const { body } = await getJson<{ paths: Record<string, { get?: { description?: string } }> }>(rateBound.url, "/api/openapi.json");
    const description = body.paths[EXPORT]?.get?.description ?? "";
    expect(description).toContain("4 exports at once (one per key)");
    expect(description).toContain(`less than ${RATE_BOUNDS.minBytesPerSecond} bytes a second`);
    expect(description).toContain(`${RATE_BOUNDS.rateWindowMs / 1000}-second windows`);
    expect(description).toContain(`${RATE_BOUNDS.maxDurationMs / 1000} s after it started`);
  });
});

describe("the export over tRPC", () => {
  it("is not a procedure there: NOT_FOUND, nothing streamed, no quota charged, no slot held", async () => {
    const key = await newPartnerKey();
    const single = `?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`;
    const batch = `?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: {} } }))}`;
    const calls: [string, Record<string, string>][] = [
      [single, {}],
      [batch, {}],
      // A streaming batch answers 200 at once and sends each call's outcome in the stream.
      [batch, { "trpc-accept": "application/jsonl" }],
    ];
    for (const [query, headers] of calls) {
      const what = `${query} ${JSON.stringify(headers)}`;
      const response = await fetch(`${rateBound.url}/trpc/feed.exportPartnerFeed${query}`, { headers: { ...bearer(key), ...headers } });
      const text = await response.text();
      if (!headers["trpc-accept"]) expect(response.status, what).toBe(404);
      expect(text.length, what).toBeLessThan(2_000);
      expect(text, what).toContain('"code":"NOT_FOUND"');
    }
    // The key's first charged call is the REST export, served at once (no slot held by the tRPC calls).
    const served = await openPaused(rateBound, EXPORT, bearer(key));
    expect(served.statusCode).toBe(200);
    expect(served.headers.ratelimit).toMatch(new RegExp(`;r=${MONTHLY_QUOTA - 1};`));
    expect(endsWithPosition((await readRest(served)).text)).toBe(true);
  });
});
