import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { businesses, citationChecks, documentMentions, documents, parseEnvironment, rowsOf } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { ownCitations, ownVisibility } from "../owner/owner-insights";
import { citationStatus, enqueueChecks, resolvePair, type CitationPair } from "./check-queue";
import { standInSettings, startEngineStandIn, type EngineStandIn } from "./engine-stand-in";
import { parseCitationEngines } from "./engines";
import { citationSettingsOf, citationVariables, type CitationSettings } from "./env";
import { runDueChecks } from "./run-checks";

let database: TestDatabase;
let engine: EngineStandIn;
interface Listing {
  id: string;
  name: string;
}
let pairs: { pair: CitationPair; citySlug: string; listings: Listing[] }[];

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  engine = await startEngineStandIn();
  // Pairs of a city and a category with three businesses whose names do not contain one another.
  const rows = rowsOf<{ city_slug: string; category_slug: string }>(
    await database.db.execute(sql`
      select c.slug as city_slug, b.category_slug from businesses b join cities c on c.id = b.city_id
      group by c.slug, b.category_slug having count(*) >= 3 order by count(*) desc, c.slug, b.category_slug limit 12`),
  );
  pairs = [];
  for (const row of rows) {
    const pair = await resolvePair(database.db, row.category_slug, row.city_slug);
    const listings = await database.db
      .select({ id: businesses.id, name: businesses.name })
      .from(businesses)
      .where(and(eq(businesses.cityId, pair.cityId), eq(businesses.categorySlug, pair.categorySlug)))
      .orderBy(businesses.id);
    const distinct = listings.filter(
      (listing) => !listings.some((other) => other !== listing && (other.name.includes(listing.name) || listing.name.includes(other.name))),
    );
    if (distinct.length >= 3) pairs.push({ pair, citySlug: row.city_slug, listings: distinct });
  }
  expect(pairs.length).toBeGreaterThanOrEqual(5);
});
afterAll(async () => {
  await engine?.close();
  await database?.destroy();
});

const DAY = 86_400_000;
/** Each test its own day (a budget is per day) and model (a runner takes its own engine's checks). */
function settingsFor(model: string, overrides: Partial<CitationSettings> = {}): CitationSettings {
  return standInSettings(parseCitationEngines(`compatible:${model}@${engine.baseURL}`), overrides);
}

async function documentCount(): Promise<number> {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(documents);
  return Number(row!.n);
}

describe("citation checks through the compatible adapter", () => {
  it("reads CITATION_ENGINES: nothing configured runs nothing; a malformed entry is named", () => {
    const schema = z.object(citationVariables);
    const none = citationSettingsOf(parseEnvironment(schema, {}));
    expect(none).toMatchObject({ engines: [], checksPerDay: 200 });
    const some = citationSettingsOf(parseEnvironment(schema, { CITATION_ENGINES: "openai:gpt-4o-mini, compatible:llama3@http://127.0.0.1:11434/v1/" }));
    expect(some.engines).toEqual([
      { name: "openai", provider: "openai", model: "gpt-4o-mini", baseURL: null },
      { name: "compatible", provider: "compatible", model: "llama3", baseURL: "http://127.0.0.1:11434/v1" },
    ]);
    expect(() => parseEnvironment(schema, { CITATION_ENGINES: "compatible:llama3" })).toThrow(/CITATION_ENGINES .*compatible:<model>@<base URL>/);
    expect(() => parseEnvironment(schema, { CITATION_ENGINES: "bing:x" })).toThrow(/provider one of/);
  });

  it("stores the answer as an ai_answer document with its mentions; the owner's citations and score follow", async () => {
    const { pair, listings } = pairs[0]!;
    const [owner, first, third] = listings as [Listing, Listing, Listing];
    const settings = settingsFor("stand-in-answers");
    const now = () => new Date(Date.now() - DAY);
    const before = await ownVisibility(database.db, owner.id);
    engine.queue({ answer: `Here are good options. ${first.name} is well reviewed. ${owner.name} is also popular. Finally, ${third.name}.` });

    const [queued] = await enqueueChecks(database.db, pair, settings.engines, now());
    const run = await runDueChecks(database.db, { settings, now });
    expect(run.checks.map((check) => check.status)).toEqual(["done"]);
    const done = run.checks[0]!;
    expect(done.id).toBe(queued!.id);
    expect(engine.requests.at(-1)).toMatchObject({ model: "stand-in-answers", question: queued!.query, authorization: "Bearer stand-in-key" });
    expect(queued!.query).toContain(pair.cityName);

    const [document] = await database.db.select().from(documents).where(eq(documents.id, done.documentId!));
    expect(document).toMatchObject({
      kind: "ai_answer",
      engine: "compatible",
      model: "stand-in-answers",
      query: queued!.query,
      cityId: pair.cityId,
      categorySlug: pair.categorySlug,
    });
    const mentions = await database.db
      .select({ businessId: documentMentions.businessId, position: documentMentions.position })
      .from(documentMentions)
      .where(eq(documentMentions.documentId, done.documentId!))
      .orderBy(documentMentions.position);
    expect(mentions).toEqual([
      { businessId: first.id, position: 1 },
      { businessId: owner.id, position: 2 },
      { businessId: third.id, position: 3 },
    ]);

    const citations = await ownCitations(database.db, { businessId: owner.id, limit: 100 });
    expect(citations.checks).toContainEqual({
      engine: "compatible",
      model: "stand-in-answers",
      query: queued!.query,
      checkedAt: done.checkedAt!.toISOString(),
      mentioned: true,
      position: 2,
      sources: [],
    });
    const after = await ownVisibility(database.db, owner.id);
    expect(after.citationRate.checks).toBe(before.citationRate.checks + 1);
    expect(after.citationRate.mentioned).toBe(before.citationRate.mentioned + 1);
    expect(after.visibilityScore).not.toBe(before.visibilityScore);

    // The same pair and engine again that day: the check is made, no second call.
    const again = await enqueueChecks(database.db, pair, settings.engines, now());
    expect(again[0]).toMatchObject({ id: done.id, status: "done" });
    const requests = engine.requests.length;
    expect((await runDueChecks(database.db, { settings, now })).checks).toEqual([]);
    expect(engine.requests.length).toBe(requests);
  });

  it("records each failure with its reason and retries within the bound: 429, 500, a timeout, malformed JSON", async () => {
    const { pair } = pairs[1]!;
    const settings = settingsFor("stand-in-failing", { timeoutMs: 300, concurrency: 1 });
    const now = () => new Date(Date.now() - 2 * DAY);
    await enqueueChecks(database.db, pair, settings.engines, now());
    const documentsBefore = await documentCount();
    const requests = engine.requests.length;
    engine.queue({ status: 429 }, { status: 500 }, { hang: true }, { malformed: true });

    const run = await runDueChecks(database.db, { settings, now });
    expect(engine.requests.length - requests).toBe(4);
    const reasons = run.checks.map((check) => [check.status, check.attempts, check.failureReason]);
    expect(reasons[0]).toEqual(["queued", 1, expect.stringMatching(/^HTTP 429/)]);
    expect(reasons[1]).toEqual(["queued", 2, expect.stringMatching(/^HTTP 500/)]);
    expect(reasons[2]).toEqual(["queued", 3, expect.stringMatching(/^timeout/)]);
    expect(reasons[3]).toEqual(["failed", 4, expect.stringMatching(/JSON|parse|Invalid|Type/i)]);
    expect(await documentCount()).toBe(documentsBefore);

    // Out of attempts: never asked again.
    expect((await runDueChecks(database.db, { settings, now })).checks).toEqual([]);
    expect(engine.requests.length - requests).toBe(4);
    const status = await citationStatus(database.db, { checksPerDay: 200, engines: settings.engines, now: now() });
    expect(status.lastFailures[0]).toMatchObject({ model: "stand-in-failing", status: "failed", attempts: 4 });
    expect(status.today.calls).toBe(4);
  });

  it("waits out the backoff (or the engine's Retry-After) before the next attempt, then stores the answer", async () => {
    const { pair, listings } = pairs[2]!;
    const settings = settingsFor("stand-in-backoff", { retryDelaysMs: [60_000], concurrency: 1 });
    const start = Date.now() - 3 * DAY;
    await enqueueChecks(database.db, pair, settings.engines, new Date(start));
    engine.queue({ status: 429, retryAfterSeconds: 120 }, { answer: `Try ${listings[0]!.name}.` });

    const first = await runDueChecks(database.db, { settings, now: () => new Date(start) });
    expect(first.checks).toHaveLength(1);
    expect(first.checks[0]!.nextAttemptAt.getTime()).toBe(start + 120_000);
    expect((await runDueChecks(database.db, { settings, now: () => new Date(start + 60_000) })).checks).toEqual([]);
    const second = await runDueChecks(database.db, { settings, now: () => new Date(start + 120_000) });
    expect(second.checks[0]).toMatchObject({ status: "done", attempts: 2, failureReason: expect.stringMatching(/^HTTP 429/) });
  });

  it("runs one check once with two runners at once", async () => {
    const { pair, listings } = pairs[3]!;
    const settings = settingsFor("stand-in-racing", { concurrency: 3 });
    const now = () => new Date(Date.now() - 4 * DAY);
    const [a, b] = await Promise.all([enqueueChecks(database.db, pair, settings.engines, now()), enqueueChecks(database.db, pair, settings.engines, now())]);
    expect(a[0]!.id).toBe(b[0]!.id);
    engine.fallback = { answer: `Ask ${listings[1]!.name}.` };
    const requests = engine.requests.length;
    try {
      const runs = await Promise.all([runDueChecks(database.db, { settings, now }), runDueChecks(database.db, { settings, now })]);
      expect(runs.flatMap((run) => run.checks).map((check) => [check.status, check.failureReason])).toEqual([["done", null]]);
    } finally {
      engine.fallback = { answer: "I cannot name any." };
    }
    expect(engine.requests.length - requests).toBe(1);
    const rows = await database.db.select().from(citationChecks).where(eq(citationChecks.model, "stand-in-racing"));
    expect(rows).toHaveLength(1);
    const [stored] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documents)
      .where(eq(documents.model, "stand-in-racing"));
    expect(Number(stored!.n)).toBe(1);
  });

  it("stops at the day's budget across engines and leaves the rest queued", async () => {
    const settings = settingsFor("stand-in-budget", { checksPerDay: 2 });
    const other = settingsFor("stand-in-budget-other", { checksPerDay: 2 });
    const now = () => new Date(Date.now() - 5 * DAY);
    for (const { pair } of pairs.slice(0, 3)) await enqueueChecks(database.db, pair, settings.engines, now());
    await enqueueChecks(database.db, pairs[4]!.pair, other.engines, now());
    const requests = engine.requests.length;

    const run = await runDueChecks(database.db, { settings: { ...settings, engines: [...settings.engines, ...other.engines] }, now });
    expect(run.budgetSpent).toBe(true);
    expect(run.checks).toHaveLength(2);
    expect(engine.requests.length - requests).toBe(2);
    const status = await citationStatus(database.db, { checksPerDay: 2, engines: settings.engines, now: now() });
    expect(status.today).toMatchObject({ calls: 2, budget: 2 });
    const left = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(citationChecks)
      .where(and(sql`${citationChecks.model} like 'stand-in-budget%'`, eq(citationChecks.status, "queued")));
    expect(Number(left[0]!.n)).toBe(2);
    // The next day has a budget again.
    const nextDay = await runDueChecks(database.db, { settings, now: () => new Date(now().getTime() + DAY) });
    expect(nextDay.checks.length).toBeGreaterThan(0);
  });
});
