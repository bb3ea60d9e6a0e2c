import { request as httpRequest, type IncomingMessage } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { backfillFeedDocuments, createApiKey, EXPORT_CHUNK_ROWS } from "@directory/api";
import { rowsOf } from "@directory/db";
import { describe, expect, it } from "vitest";
import { createDirectoryClient, DirectoryError, exportPartnerFeed } from "@directory/sdk";
import { db, developerKey, partnerKey, server, usePartnerFeedServer } from "./partner-feed-fixtures";
import { getJson } from "./testing";

usePartnerFeedServer();

const EXPORT = "/api/v2/partner-feed/export";
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** A raw GET whose body is left unread until the caller reads or destroys it. */
function openRaw(path: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = httpRequest(url, { headers }, resolve);
    req.on("error", reject);
    req.end();
  });
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A full collection, so a heap sample counts what is retained, not garbage awaiting collection. */
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

describe("GET /api/v2/partner-feed/export", () => {
  it("is 401 with publicAlternative without a key and 403 for a developer key, like the paged feed", async () => {
    const none = await getJson(server.url, EXPORT);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: "UNAUTHORIZED", publicAlternative: expect.any(String) });
    const developer = await getJson(server.url, EXPORT, bearer(developerKey));
    expect(developer.status).toBe(403);
    expect(developer.body).toMatchObject({ code: "FORBIDDEN", publicAlternative: expect.any(String) });
  });

  it("streams NDJSON, gzipped when accepted, ending with the position the change feed continues from", async () => {
    const response = await openRaw(EXPORT, { ...bearer(partnerKey), "accept-encoding": "gzip" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/x-ndjson/);
    expect(response.headers["content-encoding"]).toBe("gzip");
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const lines = gunzipSync(Buffer.concat(chunks)).toString("utf8").trimEnd().split("\n");
    const last = JSON.parse(lines.pop()!) as { after: number; count: number };
    expect(last.count).toBe(lines.length);
    const ids = lines.map((line) => (JSON.parse(line) as { identifier: string; "@id": string }).identifier);
    expect(new Set(ids).size).toBe(ids.length);
    expect(JSON.parse(lines[0]!)["@id"]).toMatch(/^http:\/\/directory\.test\/entity\//);
    const changes = await getJson(server.url, `/api/v2/partner-feed/changes?after=${last.after}`, bearer(partnerKey));
    expect(changes.status).toBe(200);
    expect(changes.body).toEqual({ changes: [], nextAfter: last.after, hasMore: false, attributions: [] });
  });
});

describe("GET /api/v2/partner-feed/changes", () => {
  it("refuses a bad limit or position with 400, and needs a partner key", async () => {
    for (const query of ["limit=0", "limit=1001", "after=abc", "after=-1", `after=${Number.MAX_SAFE_INTEGER}`]) {
      const { status, body } = await getJson(server.url, `/api/v2/partner-feed/changes?${query}`, bearer(partnerKey));
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect((await getJson(server.url, "/api/v2/partner-feed/changes")).status).toBe(401);
    expect((await getJson(server.url, "/api/v2/partner-feed/changes", bearer(developerKey))).status).toBe(403);
  });
});

/*
 * An export held open by a reader that does not read: on PostgreSQL only, where the export's
 * transaction has a connection of its own (PGlite serves one connection, so the second request's
 * key check would wait for the first export). The documents are padded (trailing spaces are valid
 * JSON) so the export outgrows the sockets' buffers.
 */
describe.skipIf(!onPostgres)("one export per key (PostgreSQL)", () => {
  it("refuses a second export for one key with 429 and Retry-After, serves another key, and frees the key within 10 s of a disconnect", async () => {
    await db().execute(sql`update feed_documents set document = document || repeat(' ', 40000)`);
    try {
      const first = await openRaw(EXPORT, bearer(partnerKey));
      expect(first.statusCode).toBe(200);
      first.pause();
      const second = await getJson(server.url, EXPORT, bearer(partnerKey));
      expect(second.status).toBe(429);
      expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
      const otherKey = (await createApiKey(db(), { kind: "partner" })).key;
      const other = await openRaw(EXPORT, bearer(otherKey));
      expect(other.statusCode).toBe(200);
      other.destroy();

      const heapBefore = process.memoryUsage().heapUsed;
      first.destroy();
      const freedBy = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < freedBy) {
        const again = await openRaw(EXPORT, bearer(partnerKey));
        status = again.statusCode!;
        again.destroy();
        if (status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status).toBe(200);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200_000_000);
    } finally {
      await db().execute(sql`update feed_documents set document = rtrim(document, ' ')`);
    }
  });

  it("keeps the server's memory flat under a throttled reader (sampled)", async () => {
    // Every active business of the test world in the feed (~60 MB padded), so the export is many reads long.
    await db().execute(sql`update businesses set ownership = 'owner_verified' where ownership <> 'owner_verified'`);
    await backfillFeedDocuments(db());
    await db().execute(sql`update feed_documents set document = document || repeat(' ', 20000)`);
    const [{ locations }] = rowsOf<{ locations: number }>(await db().execute(sql`select count(*)::int as locations from feed_documents`)) as [
      { locations: number },
    ];
    try {
      const response = await openRaw(EXPORT, bearer(partnerKey));
      const samples: number[] = [];
      let bytes = 0;
      // ~10 MB/s: 512 KB let through every 50 ms, then paused again.
      await new Promise<void>((resolve, reject) => {
        let budget = 0;
        response.pause();
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          budget -= chunk.length;
          if (budget <= 0) response.pause();
        });
        let ticks = 0;
        const timer = setInterval(() => {
          budget = 512_000;
          response.resume();
          // What is retained, not garbage waiting for a collection: sampled after a full collection.
          if (ticks++ % 5 === 0) {
            collectGarbage();
            samples.push(process.memoryUsage().heapUsed);
          }
        }, 50);
        response.on("end", () => {
          clearInterval(timer);
          resolve();
        });
        response.on("error", reject);
      });
      expect(bytes).toBeGreaterThan(20_000_000);
      // The server holds the read being written and the next one (each built once as rows, texts and one string), never the export.
      const reads = Math.ceil(locations / EXPORT_CHUNK_ROWS);
      expect(reads).toBeGreaterThanOrEqual(5);
      // Growth across the export: the most held in its second half over the least in its first. A
      // held export grows by all the bytes sent; a streamed one by what is in flight (a read or two:
      // 13 MB of a 32 MB export here, the heap oscillating 66-92 MB with no trend).
      const half = Math.floor(samples.length / 2);
      expect(Math.max(...samples.slice(half)) - Math.min(...samples.slice(0, half))).toBeLessThan(0.75 * bytes);
    } finally {
      await db().execute(sql`update feed_documents set document = rtrim(document, ' ')`);
    }
  }, 60_000);
});

describe("the SDK", () => {
  it("reads the export as an async iterable of locations, then follows the changes from its position", async () => {
    const exported = exportPartnerFeed({ baseUrl: server.url, apiKey: partnerKey });
    const ids: string[] = [];
    for await (const location of exported) ids.push(location.identifier);
    expect(exported.count).toBe(ids.length);
    expect(exported.after).not.toBeNull();
    const client = createDirectoryClient({ baseUrl: server.url, apiKey: partnerKey });
    expect(await client.feed.getPartnerFeedChanges.query({ after: exported.after!, limit: 10 })).toEqual({
      changes: [],
      nextAfter: exported.after,
      hasMore: false,
      attributions: [],
    });
  });

  it("throws a DirectoryError with publicAlternative for a developer key", async () => {
    const refused = await (async () => {
      for await (const location of exportPartnerFeed({ baseUrl: server.url, apiKey: developerKey })) return location;
    })().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DirectoryError);
    expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN", publicAlternative: expect.any(String) });
  });
});
