import { readFileSync } from "node:fs";
import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@directory/db";
import { createContext } from "../../context";
import { toPublicError } from "../../errors";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { standInSettings, startEngineStandIn, type EngineStandIn } from "../../services/citations/engine-stand-in";
import { parseCitationEngines, type CitationEngine } from "../../services/citations/engines";
import type { CitationSettings } from "../../services/citations/env";
import { CITATION_METHOD } from "../../services/citations/method";
import { NO_ENGINE_NOTE } from "../../services/citations/owner-recheck";
import { languageOfQuestion, questionLanguageOf } from "../../services/citations/questions";
import { runDueChecks } from "../../services/citations/run-checks";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

/**
 * An owner's recheck (owner.requestCitationRecheck) through the in-process door, the engines a
 * loopback stand-in: the checks it queues are answered by the worker's runDueChecks and change the
 * owner's citations; once a business a UTC day; its own business only; refused with no engine.
 */

let database: TestDatabase;
let standIn: EngineStandIn;
let engines: CitationEngine[];
interface Listing {
  id: string;
  slug: string;
  name: string;
}
let listings: Listing[];

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  standIn = await startEngineStandIn();
  engines = parseCitationEngines(`compatible:recheck-model@${standIn.baseURL}`);
  // Listings of different pairs whose names contain no other name of their city: an answer naming one names it first.
  listings = rowsOf<Listing>(
    await database.db.execute(sql`
      select distinct on (b.city_id, b.category_slug) b.id, b.slug, b.name from businesses b
      where b.status = 'active' and not exists (
        select 1 from businesses o where o.city_id = b.city_id and o.id <> b.id and (strpos(lower(b.name), lower(o.name)) > 0 or strpos(lower(o.name), lower(b.name)) > 0))
      order by b.city_id, b.category_slug, b.id limit 3`),
  );
  expect(listings).toHaveLength(3);
});
afterAll(async () => {
  await standIn?.close();
  await database?.destroy();
});

function callerWith(key: string, withEngines = true) {
  return createCaller(
    createContext({
      db: database.db,
      publicBaseUrl: "http://directory.test",
      authorizationHeader: `Bearer ${key}`,
      citationEngines: withEngines ? engines : [],
    }),
  );
}

async function keyOf(listing: Listing): Promise<string> {
  return (await createApiKey(database.db, { kind: "business", businessSlug: listing.slug })).key;
}

function settings(): CitationSettings {
  return standInSettings(engines);
}

/** The refusal a call ended with, as every door reports it. */
async function refusalOf(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return toPublicError(error as TRPCError);
}

describe("owner.requestCitationRecheck", () => {
  it("queues one check per engine, which the worker answers; the owner's citations and per-engine summary show it", async () => {
    const [own] = listings;
    const caller = callerWith(await keyOf(own!));
    const before = await caller.owner.citations({ limit: 5 });
    const recheck = await caller.owner.requestCitationRecheck();
    expect(recheck.checks).toEqual([{ engine: "compatible", model: "recheck-model", query: expect.any(String), status: "queued", checkedAt: null }]);
    expect(Date.parse(recheck.nextRecheckAt) - Date.parse(`${recheck.requestedAt.slice(0, 10)}T00:00:00Z`)).toBe(86_400_000);

    standIn.queue({ answer: `For that, ${own!.name} is the one people name first.`, citations: ["https://guide.example/best", "not a url"] });
    const run = await runDueChecks(database.db, { settings: settings() });
    expect(run.checks.map((check) => check.status)).toEqual(["done"]);
    expect(standIn.requests.at(-1)?.question).toBe(recheck.checks[0]!.query);

    const after = await caller.owner.citations({ limit: 5 });
    expect(after.checks.length).toBe(Math.min(5, before.checks.length + 1));
    expect(after.checks[0]).toMatchObject({
      engine: "compatible",
      model: "recheck-model",
      query: recheck.checks[0]!.query,
      mentioned: true,
      position: 1,
      sources: ["https://guide.example/best"],
    });
    expect(after.engines).toEqual({ configured: true, names: ["compatible:recheck-model"], note: expect.stringContaining("compatible:recheck-model") });
    expect(after.method).toEqual(CITATION_METHOD);

    const visibility = await caller.owner.visibility();
    const compatible = visibility.byEngine.find((row) => row.engine === "compatible");
    expect(compatible).toMatchObject({ model: "recheck-model", checks: 1, mentioned: 1, rate: 1, averagePosition: 1 });
    expect(compatible?.latestCheck).toEqual({ checkedAt: after.checks[0]!.checkedAt, query: recheck.checks[0]!.query });
    expect(compatible?.weeks).toEqual([{ week: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), checks: 1, mentioned: 1 }]);
    expect(visibility.method).toEqual(CITATION_METHOD);
    expect(visibility.engines.configured).toBe(true);
  });

  it("refuses a second recheck of the business the same UTC day with 429, saying when it may ask again; another business may still ask", async () => {
    const [, own, other] = listings;
    const caller = callerWith(await keyOf(own!));
    const first = await caller.owner.requestCitationRecheck();
    // A second key of the same business changes nothing: the rule is the business's.
    const refused = await refusalOf(callerWith(await keyOf(own!)).owner.requestCitationRecheck());
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", policy: "citation-recheck", resetAt: first.nextRecheckAt });
    expect(refused.body.error).toContain(first.nextRecheckAt);
    expect((await callerWith(await keyOf(other!)).owner.requestCitationRecheck()).checks).toHaveLength(1);
    const [queued] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from citation_checks where trigger = 'owner' and status = 'queued'`),
    );
    expect(Number(queued!.n)).toBe(2);
  });

  it("asks in the language of the business's city, as the schedule does", async () => {
    const inCities = rowsOf<Listing & { country_code: string }>(
      await database.db.execute(sql`
        select distinct on (c.country_code) b.id, b.slug, b.name, c.country_code from businesses b join cities c on c.id = b.city_id
        where b.status = 'active' order by c.country_code, b.id`),
    );
    const abroad = inCities.find((listing) => questionLanguageOf(listing.country_code) !== "en");
    expect(abroad, "the world has a city whose questions are not in English").toBeDefined();
    const recheck = await callerWith(await keyOf(abroad!)).owner.requestCitationRecheck();
    expect(languageOfQuestion(recheck.checks[0]!.query)).toBe(questionLanguageOf(abroad!.country_code));
  });

  it("acts on the key's own business only: naming another business is 403 and queues nothing", async () => {
    const [victim, stranger] = listings;
    const refused = await refusalOf(callerWith(await keyOf(stranger!)).owner.requestCitationRecheck({ slug: victim!.slug }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
  });

  it("with no engine configured: citations and visibility say so, and a recheck is 409 saying why, counting nothing", async () => {
    const [, , own] = listings;
    const caller = callerWith(await keyOf(own!), false);
    const citations = await caller.owner.citations({ limit: 1 });
    expect(citations.engines).toEqual({ configured: false, names: [], note: NO_ENGINE_NOTE });
    expect((await caller.owner.visibility()).engines.configured).toBe(false);
    const refused = await refusalOf(caller.owner.requestCitationRecheck());
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "CONFLICT", reason: "no_engine_configured" });
    expect(refused.body.error).toContain("No AI engine is configured");
  });
});

describe("the method", () => {
  it("is served as written in docs/citation-checks.md, word for word", () => {
    const doc = readFileSync(new URL("../../../../../docs/citation-checks.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    for (const [part, text] of Object.entries(CITATION_METHOD)) expect(doc, part).toContain(text);
  });
});
