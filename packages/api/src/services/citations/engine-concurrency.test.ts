import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationChecks, createDatabase, rowsOf, type Database } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { enqueueChecks, resolvePair } from "./check-queue";
import { standInSettings, startEngineStandIn, type EngineStandIn } from "./engine-stand-in";
import { parseCitationEngines } from "./engines";
import { runDueChecks } from "./run-checks";

let database: TestDatabase;
/** The second worker: on PostgreSQL a pool of its own, as another process would have; PGlite has one connection. */
let secondWorker: Database | undefined;
let engine: EngineStandIn;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  if (database.url) secondWorker = await createDatabase({ url: database.url });
  engine = await startEngineStandIn({ answer: "No names today." });
});
afterAll(async () => {
  await engine?.close();
  await secondWorker?.close();
  await database?.destroy();
});

describe("an engine's calls in flight across workers", () => {
  it("never exceeds CITATION_CONCURRENCY with two workers running the queue at once, and every check runs once", async () => {
    const settings = standInSettings(parseCitationEngines(`compatible:stand-in-slow@${engine.baseURL}`), { timeoutMs: 5_000, retryDelaysMs: [0] });
    const pairs = rowsOf<{ city_slug: string; category_slug: string }>(
      await database.db.execute(sql`
        select distinct c.slug as city_slug, b.category_slug from businesses b join cities c on c.id = b.city_id
        order by c.slug, b.category_slug limit 8`),
    );
    const now = () => new Date();
    for (const row of pairs) await enqueueChecks(database.db, await resolvePair(database.db, row.category_slug, row.city_slug), settings.engines, now());
    engine.delayMs = 150;
    engine.maxInFlight = 0;

    const runs = await Promise.all([runDueChecks(database.db, { settings, now }), runDueChecks(secondWorker?.db ?? database.db, { settings, now })]);

    // Each worker alone would have had two calls in flight: four at once without the shared bound.
    expect(engine.maxInFlight).toBe(2);
    expect(engine.requests).toHaveLength(pairs.length);
    const attempted = runs.flatMap((run) => run.checks);
    expect(attempted.map((check) => check.status)).toEqual(Array.from({ length: pairs.length }, () => "done"));
    const rows = await database.db.select({ status: citationChecks.status }).from(citationChecks).where(eq(citationChecks.model, "stand-in-slow"));
    expect(rows.map((row) => row.status)).toEqual(Array.from({ length: pairs.length }, () => "done"));
  });

  it("counts a check running under a live lease as in flight, and one past its lease as free", async () => {
    const settings = standInSettings(parseCitationEngines(`compatible:stand-in-leased@${engine.baseURL}`), {
      timeoutMs: 5_000,
      concurrency: 1,
      retryDelaysMs: [0],
    });
    const [first, second] = rowsOf<{ city_slug: string; category_slug: string }>(
      await database.db.execute(sql`
        select distinct c.slug as city_slug, b.category_slug from businesses b join cities c on c.id = b.city_id
        order by c.slug desc, b.category_slug limit 2`),
    );
    const start = new Date();
    const [held] = await enqueueChecks(database.db, await resolvePair(database.db, first!.category_slug, first!.city_slug), settings.engines, start);
    await enqueueChecks(database.db, await resolvePair(database.db, second!.category_slug, second!.city_slug), settings.engines, start);
    // A worker holds one check (its lease runs a minute); the engine's one call is taken.
    await database.db
      .update(citationChecks)
      .set({ status: "running", attempts: 1, leaseUntil: new Date(start.getTime() + 60_000) })
      .where(eq(citationChecks.id, held!.id));
    engine.delayMs = 0;
    const requests = engine.requests.length;
    expect(await runDueChecks(database.db, { settings, now: () => start })).toEqual({ checks: [], budgetSpent: false, engineBusy: true });
    expect(engine.requests.length).toBe(requests);

    // Its lease over (the worker died): it is taken over, and the other check runs too, one at a time.
    const later = () => new Date(start.getTime() + 61_000);
    const run = await runDueChecks(database.db, { settings, now: later });
    expect(run.checks.map((check) => check.status)).toEqual(["done", "done"]);
    expect(engine.requests.length - requests).toBe(2);
  });
});
