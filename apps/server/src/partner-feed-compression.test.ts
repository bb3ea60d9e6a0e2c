import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { recordFeedChanges } from "@directory/api";
import { db, expectedIds, partnerKey, server, usePartnerFeedServer } from "./partner-feed-fixtures";

/** The partner feed's pages over REST: compressed as HTTP asks, the same body either way. */

usePartnerFeedServer();

// A fresh world has no changes yet: fifty of them make a change page worth compressing.
beforeAll(async () => {
  const ids = (await expectedIds()).slice(0, 50);
  await db().transaction((tx) => recordFeedChanges(tx, ids, new Date()));
});

/** A GET as bytes, with the partner key and the headers given; no decoding. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { authorization: `Bearer ${partnerKey}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the REST door's page bodies (written whole, gzipped in one piece)", () => {
  for (const path of ["/api/v2/partner-feed?limit=50", "/api/v2/partner-feed/changes?after=0&limit=50"]) {
    it(`${path.split("?")[0]}: gzip when asked for it, decoding to the identity body; identity without Accept-Encoding`, async () => {
      const plain = await rawGet(path, {});
      const identity = await rawGet(path, { "accept-encoding": "identity" });
      const gzip = await rawGet(path, { "accept-encoding": "gzip, deflate" });
      const refused = await rawGet(path, { "accept-encoding": "gzip;q=0" });
      for (const answer of [plain, identity, gzip, refused]) expect(answer.status).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(identity.headers["content-encoding"]).toBeUndefined();
      expect(refused.headers["content-encoding"]).toBeUndefined();
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
      expect(gzip.body.length).toBeLessThan(identity.body.length);
      expect(gunzipSync(gzip.body).toString()).toBe(identity.body.toString());
      expect(plain.body.toString()).toBe(identity.body.toString());
      expect(JSON.parse(identity.body.toString())).toHaveProperty(path.includes("changes") ? "changes" : "locations");
    });
  }
});
