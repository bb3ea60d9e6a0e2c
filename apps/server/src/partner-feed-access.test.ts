import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, generateApiKey } from "@directory/api";
import { apiKeys, businesses } from "@directory/db";
import { type ErrorBody, SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/** A refusal of the feed points at what may be read without a key. */
type RefusalBody = ErrorBody & { publicAlternative: string };
import { db, developerKey, expectedIds, feed, feedCondition, partnerKey, server, usePartnerFeedServer } from "./partner-feed-fixtures";

/** Who may read the partner feed, which parameters it refuses, and the monthly quota of a partner key. */

usePartnerFeedServer();

describe("GET /api/v2/partner-feed: authentication", () => {
  it("is 401 without a key, naming the public alternative", async () => {
    const { status, body } = await feed<RefusalBody>("", null);
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: expect.any(String), code: "UNAUTHORIZED", publicAlternative: expect.any(String) });
    expect(body.error).toMatch(/key/i);
    expect(body.publicAlternative.length).toBeGreaterThan(0);
  });

  it("is 401 with publicAlternative for a malformed key, a typo of a real key and a well-formed unknown key", async () => {
    const typo = `${partnerKey.slice(0, -1)}${partnerKey.endsWith("a") ? "b" : "a"}`;
    for (const key of ["not-a-key", typo, generateApiKey("partner")]) {
      const { status, body } = await feed<RefusalBody>("", key);
      expect(status, key).toBe(401);
      expect(body, key).toMatchObject({ error: expect.any(String), code: "INVALID_API_KEY", publicAlternative: expect.any(String) });
    }
  });

  it("is 401 with publicAlternative for a revoked partner key", async () => {
    const { key, apiKey } = await createApiKey(db(), { kind: "partner" });
    expect((await feed("", key)).status).toBe(200);
    await db().update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, apiKey.id));
    const { status, body } = await feed<RefusalBody>("", key);
    expect(status).toBe(401);
    expect(body.publicAlternative).toEqual(expect.any(String));
  });

  it("is 403 for a developer or business key, and serves partner and admin keys", async () => {
    const developer = await feed<ErrorBody>("", developerKey);
    expect(developer.status).toBe(403);
    expect(developer.body).toMatchObject({ error: expect.any(String), code: "FORBIDDEN" });
    const [someBusiness] = await db().select({ slug: businesses.slug }).from(businesses).where(feedCondition).limit(1);
    const businessKey = (await createApiKey(db(), { kind: "business", businessSlug: someBusiness!.slug })).key;
    expect((await feed("", businessKey)).status).toBe(403);
    expect((await feed("", partnerKey)).status).toBe(200);
    expect((await feed("", server.adminKey)).status).toBe(200);
  });
});

describe("GET /api/v2/partner-feed: parameters", () => {
  it("pages 100 by default and accepts limit=500", async () => {
    const total = (await expectedIds()).length;
    const byDefault = await feed();
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toMatchObject({ total, limit: 100, offset: 0 });
    expect(byDefault.body.locations).toHaveLength(Math.min(100, total));

    const max = await feed("limit=500");
    expect(max.status).toBe(200);
    expect(max.body.limit).toBe(500);
    expect(max.body.locations).toHaveLength(Math.min(500, total));
  });

  it.each([
    ["limit=501", "limit"],
    ["limit=0", "limit"],
    ["limit=-1", "limit"],
    ["limit=2.5", "limit"],
    ["limit=abc", "limit"],
    ["offset=-1", "offset"],
    ["updatedSince=not-a-date", "updatedSince"],
    ["updatedSince=2026-13-01", "updatedSince"],
    ["updatedSince=yesterday", "updatedSince"],
    ["cursor=garbage", "cursor"],
    [`cursor=${Buffer.from("[1,2,3]").toString("base64url")}`, "cursor"],
  ])("refuses %s with 400 { error, code } (no clamping, no stack)", async (query, parameter) => {
    const { status, body } = await feed<ErrorBody>(query);
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.stringContaining(parameter), code: "INVALID_INPUT" });
    expect(JSON.stringify(body)).not.toMatch(/stack|at \w+ \(/);
  });

  it("refuses an impossible calendar date in updatedSince rather than rolling it over", async () => {
    // 2026-02-30 does not exist; JavaScript's Date would silently read it as 2026-03-02.
    const { status, body } = await feed<ErrorBody>("updatedSince=2026-02-30");
    expect(status).toBe(400);
    expect(body.code).toBe("INVALID_INPUT");
  });

  it("refuses a tampered cursor with 400, never a 500", async () => {
    const real = (await feed("limit=10")).body.nextCursor!;
    const parts = JSON.parse(Buffer.from(real, "base64url").toString("utf8")) as unknown[];
    // [updated_at, id, offset, total, filters, signature]: edited by hand, its signature no longer matches.
    expect(parts).toHaveLength(6);
    const tampered = (index: number, value: unknown) => Buffer.from(JSON.stringify(parts.map((p, i) => (i === index ? value : p)))).toString("base64url");
    const cases = {
      "id of 36 dashes": tampered(1, "-".repeat(36)),
      "id that is not a uuid": tampered(1, "0123456789abcdef0123456789abcdef0123"),
      "updated_at beyond bigint": tampered(0, "99999999999999999999"),
      "updated_at beyond the timestamp range": tampered(0, "9223372036854775807"),
      "negative offset": tampered(2, -1),
      "other filters": tampered(4, "AAAAAAAAAAAAAAAA"),
      "edited total": tampered(3, 999_999),
      "offset of 2^63": tampered(2, 2 ** 63),
      "signature of another cursor": tampered(5, "A".repeat(22)),
    };
    const answers: Record<string, unknown> = {};
    for (const [what, cursor] of Object.entries(cases)) {
      const { status, body } = await feed<ErrorBody>(new URLSearchParams({ limit: "10", cursor }));
      answers[what] = { status, code: body.code, namesCursor: String(body.error).includes("cursor") };
    }
    const refused = { status: 400, code: "INVALID_INPUT", namesCursor: true };
    expect(answers).toEqual(Object.fromEntries(Object.keys(cases).map((what) => [what, refused])));
  });

  it("refuses a cursor together with offset > 0", async () => {
    const first = await feed("limit=10");
    const cursor = first.body.nextCursor!;
    expect(typeof cursor).toBe("string");
    const both = await feed<ErrorBody>(new URLSearchParams({ limit: "10", cursor, offset: "10" }));
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: expect.stringContaining("offset"), code: "INVALID_INPUT" });
    // offset=0 is the default, so it is not a conflict.
    expect((await feed(new URLSearchParams({ limit: "10", cursor, offset: "0" }))).status).toBe(200);
  });

  it("refuses a cursor replayed with other filters", async () => {
    const first = await feed("limit=1&category=dent");
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor!;
    expect(typeof cursor).toBe("string");
    // Same filter in another case is the same query.
    expect((await feed(new URLSearchParams({ limit: "1", category: "DENT", cursor }))).status).toBe(200);
    const otherFilters: Record<string, string>[] = [{ category: "plumb" }, {}, { category: "dent", updatedSince: "2020-01-01" }];
    for (const filters of otherFilters) {
      const { status, body } = await feed<ErrorBody>(new URLSearchParams({ limit: "1", ...filters, cursor }));
      expect(status, JSON.stringify(filters)).toBe(400);
      expect(body, JSON.stringify(filters)).toEqual({ error: expect.stringContaining("cursor"), code: "INVALID_INPUT" });
    }
  });
});

describe("GET /api/v2/partner-feed: monthly quota", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ seed: SMALL_TEST_WORLD, rateLimits: { anonymousPerDay: 500, keyedPerMonth: 3 } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers 429 RATE_LIMITED with Retry-After once the partner key's quota is spent", async () => {
    const { key } = await createApiKey(limited.database.db, { kind: "partner" });
    for (let i = 1; i <= 3; i++) {
      const { status, headers } = await feed("", key, limited.url);
      expect(status, `request ${i}`).toBe(200);
      expect(headers.get("ratelimit-policy")).toMatch(/;q=3;/);
      expect(headers.get("ratelimit")).toMatch(new RegExp(`;r=${3 - i};`));
      expect(headers.get("retry-after")).toBeNull();
    }
    const refused = await feed<ErrorBody>("", key, limited.url);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: expect.any(String), code: "RATE_LIMITED" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit")).toMatch(/;r=0;/);
    // Another partner key has its own quota.
    const other = (await createApiKey(limited.database.db, { kind: "partner" })).key;
    expect((await feed("", other, limited.url)).status).toBe(200);
  });
});
