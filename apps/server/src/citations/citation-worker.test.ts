import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCitationEngines } from "@directory/api";
import { createTestDatabase, SMALL_TEST_WORLD, standInSettings, startEngineStandIn, type EngineStandIn, type TestDatabase } from "@directory/api/testing";
import { citationChecks } from "@directory/db";
import { createLogger } from "../logger";
import { startCitationWorker } from "./citation-worker";

let database: TestDatabase;
let engine: EngineStandIn;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  engine = await startEngineStandIn({ answer: "No names today." });
});
afterAll(async () => {
  await engine?.close();
  await database?.destroy();
});

describe("the citation worker", () => {
  it("queues the period's pairs by the schedule and runs them within the day's budget, then stops", async () => {
    const settings = standInSettings(parseCitationEngines(`compatible:worker-model@${engine.baseURL}`), { checksPerDay: 3, retryDelaysMs: [0] });
    const worker = startCitationWorker({ db: database.db, settings, logger: createLogger("silent"), intervalMs: 50 });
    try {
      await expect
        .poll(async () => (await database.db.select().from(citationChecks).where(eq(citationChecks.status, "done"))).length, { timeout: 20_000 })
        .toBe(3);
    } finally {
      await worker.stop();
    }
    // The budget (3 calls) is spent: the worker queued three pairs and asked no more.
    expect(engine.requests).toHaveLength(3);
    expect(await database.db.select().from(citationChecks)).toHaveLength(3);
  });
});
