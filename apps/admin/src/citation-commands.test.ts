import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationSettingsOf, citationStatus, parseCitationEngines, runCitationCheck, type CitationSettings } from "@directory/api";
import { createTestDatabase, SMALL_TEST_WORLD, startEngineStandIn, type EngineStandIn, type TestDatabase } from "@directory/api/testing";
import { rowsOf } from "@directory/db";
import { adminEnvironmentSchema } from "./env";

let database: TestDatabase;
let engine: EngineStandIn;
let settings: CitationSettings;
let target: { city: string; category: string; names: string[] };

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  engine = await startEngineStandIn();
  settings = citationSettingsOf(
    adminEnvironmentSchema.parse({
      CITATION_ENGINES: `compatible:cli-model@${engine.baseURL}`,
      CITATION_CHECKS_PER_DAY: "5",
      CITATION_COMPATIBLE_API_KEY: "cli-key",
    }),
  );
  const [row] = rowsOf<{ city: string; category: string; names: string[] }>(
    await database.db.execute(sql`
      select c.slug as city, b.category_slug as category, array_agg(b.name order by b.id) as names
      from businesses b join cities c on c.id = b.city_id
      group by c.slug, b.category_slug having count(*) >= 2 order by count(*) desc, c.slug limit 1`),
  );
  target = row!;
});
afterAll(async () => {
  await engine?.close();
  await database?.destroy();
});

describe("admin citations run|status", () => {
  it("runs today's check of a pair now, and reports it made when run again the same day", async () => {
    const named = target.names[0]!;
    engine.fallback = { answer: `You could try ${named}.` };
    const result = await runCitationCheck(database.db, settings, { category: target.category, city: target.city });
    expect(result).toMatchObject({ category: target.category, city: target.city, budgetSpent: false });
    expect(result.checks).toHaveLength(1);
    expect(result.checks[0]).toMatchObject({ engine: "compatible", model: "cli-model", status: "done", attempts: 1, failureReason: null });
    expect(result.checks[0]!.mentions.map((mention) => mention.position)).toEqual(result.checks[0]!.mentions.map((_, index) => index + 1));
    expect(result.checks[0]!.mentions.length).toBeGreaterThan(0);
    expect(engine.requests).toHaveLength(1);
    expect(engine.requests[0]!.authorization).toBe("Bearer cli-key");

    const again = await runCitationCheck(database.db, settings, { category: target.category, city: target.city, engine: "compatible" });
    expect(again.checks[0]).toMatchObject({ status: "done", documentId: result.checks[0]!.documentId });
    expect(engine.requests).toHaveLength(1);

    const status = await citationStatus(database.db, { checksPerDay: settings.checksPerDay, engines: settings.engines, now: new Date() });
    expect(status).toMatchObject({ engines: ["compatible:cli-model"], queue: { done: 1, queued: 0 }, today: { calls: 1, budget: 5 }, lastFailures: [] });
  });

  it("refuses with the reason: no engine configured, an unknown engine, city or category", async () => {
    const none = { ...settings, engines: [] };
    await expect(runCitationCheck(database.db, none, { category: target.category, city: target.city })).rejects.toThrow(
      /no citation engine is configured: set CITATION_ENGINES/,
    );
    await expect(runCitationCheck(database.db, settings, { category: target.category, city: target.city, engine: "openai" })).rejects.toThrow(
      /no configured engine is named "openai" \(configured: compatible:cli-model\)/,
    );
    await expect(runCitationCheck(database.db, settings, { category: target.category, city: "no-such-city-zz" })).rejects.toThrow(
      /Unknown city "no-such-city-zz"/,
    );
    await expect(runCitationCheck(database.db, settings, { category: "no-such-category", city: target.city })).rejects.toThrow(
      /Unknown category "no-such-category"/,
    );
    expect(parseCitationEngines("")).toEqual([]);
  });
});
