import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { ALL_DAYS, BROWSER_ACCEPT, fetchPage, mumbaiDentists } from "./pages-fixtures";
import { getJson, startTestServer, type TestServer } from "./testing";

const LIMIT = 3;
// A client address of its own (one trusted proxy hop), as a visitor behind the load balancer.
const VISITOR = { accept: BROWSER_ACCEPT, "x-forwarded-for": "203.0.113.26" };

let limited: TestServer;
beforeAll(async () => {
  limited = await startTestServer({ rateLimits: { anonymousPerDay: LIMIT, openPerMinute: 1_000_000 }, trustProxyHops: 1 });
});
afterAll(async () => {
  await limited?.close();
});

describe("one profile view counts once against the anonymous daily limit (issue 26)", () => {
  it("a profile page with its offers, questions and hours costs one request of the day's allowance; the 4th view of 3 is the 429 page", async () => {
    const [target] = await mumbaiDentists(limited.database.db);
    await limited.database.db
      .update(businesses)
      .set({ openingHours: [{ days: ALL_DAYS, opens: "08:00", closes: "20:00" }] })
      .where(eq(businesses.id, target!.id));
    for (let view = 1; view <= LIMIT; view++) {
      const page = await fetchPage(`${limited.url}/business/${target!.slug}`, VISITOR);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<h2 id="offers">');
      expect(page.text).toContain('<table class="hours">');
      expect(page.headers.get("ratelimit")).toMatch(new RegExp(`^"anonymous-daily";r=${LIMIT - view};t=\\d+$`));
    }
    const refused = await fetchPage(`${limited.url}/business/${target!.slug}`, VISITOR);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    expect(refused.text).toContain("<h1>Too many requests</h1>");
    // The API counted the same: the allowance is spent.
    expect((await getJson(limited.url, `/api/v2/entity-profile?slug=${target!.slug}`, { "x-forwarded-for": VISITOR["x-forwarded-for"] })).status).toBe(429);
  });
});
