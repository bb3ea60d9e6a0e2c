import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documents, rowsOf } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { enqueueChecks, resolvePair } from "./check-queue";
import { cleanCitedSources, MAX_CITED_SOURCES, sourcesInResponseBody } from "./cited-sources";
import { standInSettings, startEngineStandIn, type EngineStandIn } from "./engine-stand-in";
import { parseCitationEngines } from "./engines";
import type { CitationSettings } from "./env";
import { CITATION_QUESTION_LANGUAGE_RULE, citationQuestion, languageOfQuestion, questionLanguageOf } from "./questions";
import { runDueChecks } from "./run-checks";

let database: TestDatabase;
let engine: EngineStandIn;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  engine = await startEngineStandIn();
});
afterAll(async () => {
  await engine?.close();
  await database?.destroy();
});

function settingsFor(model: string): CitationSettings {
  return standInSettings(parseCitationEngines(`compatible:${model}@${engine.baseURL}`), { timeoutMs: 5_000, concurrency: 1, retryDelaysMs: [0] });
}

/** A pair of a category and a city of the country, whether or not the world has listings there. */
async function pairIn(countryCode: string) {
  const [city] = rowsOf<{ slug: string }>(
    await database.db.execute(sql`select slug from cities where country_code = ${countryCode} order by population desc, id limit 1`),
  );
  return resolvePair(database.db, "dentist", city!.slug);
}

describe("the sources an engine cites", () => {
  it("are stored with the answer: http(s) only, without credentials, duplicates or hidden characters, at most 20", async () => {
    const pair = await pairIn("IN");
    const settings = settingsFor("stand-in-sources");
    const many = Array.from({ length: 30 }, (_, index) => `https://example.org/page/${index}`);
    engine.queue({
      answer: "Several clinics are well reviewed.",
      citations: [
        "https://user:secret@news.example.com/best-dentists?city=1#top",
        "javascript:alert(1)",
        "ftp://files.example.com/list",
        "not a url",
        `https://example.com/${"a".repeat(2_100)}`,
        "https://news.example.com/best-dentists?city=1#top",
        "https://zero\u200bwidth.example.com/",
        ...many,
      ],
    });
    await enqueueChecks(database.db, pair, settings.engines, new Date());
    const run = await runDueChecks(database.db, { settings });
    expect(run.checks.map((check) => check.status)).toEqual(["done"]);
    const [document] = await database.db.select().from(documents).where(eq(documents.id, run.checks[0]!.documentId!));
    expect(document!.sources).toEqual([
      "https://news.example.com/best-dentists?city=1#top",
      "https://zerowidth.example.com/",
      ...many.slice(0, MAX_CITED_SOURCES - 2),
    ]);
  });

  it("are none when the engine gives none, and are read from OpenAI's url_citation annotations too", async () => {
    const pair = await pairIn("US");
    const settings = settingsFor("stand-in-no-sources");
    engine.queue({ answer: "I would ask a neighbour." });
    await enqueueChecks(database.db, pair, settings.engines, new Date());
    const run = await runDueChecks(database.db, { settings });
    const [document] = await database.db.select().from(documents).where(eq(documents.id, run.checks[0]!.documentId!));
    expect(document!.sources).toEqual([]);
    expect(cleanCitedSources([42, null, "HTTPS://Example.COM/a b"])).toEqual(["https://example.com/a%20b"]);
    const openAiBody = {
      choices: [{ message: { content: "...", annotations: [{ type: "url_citation", url_citation: { url: "https://a.example/", title: "A" } }] } }],
      search_results: [{ title: "B", url: "https://b.example/" }],
    };
    expect(cleanCitedSources(sourcesInResponseBody(openAiBody))).toEqual(["https://b.example/", "https://a.example/"]);
  });
});

describe("questions in the city's language", () => {
  it("are German for a city in Germany, English where the language is not known", () => {
    expect(questionLanguageOf("DE")).toBe("de");
    expect(questionLanguageOf("BR")).toBe("pt");
    expect(questionLanguageOf("IN")).toBe("en");
    expect(questionLanguageOf("BE")).toBe("en");
    expect(questionLanguageOf(null)).toBe("en");
    const day = "2026-11-29";
    const german = citationQuestion("Dentist", "Munich", day, "de");
    expect(german).toMatch(/^(Wer ist der beste Anbieter für|Welchen Anbieter für|Ich brauche einen guten Anbieter für) Dentist in Munich/);
    expect(languageOfQuestion(german)).toBe("de");
    expect(citationQuestion("Dentist", "Munich", day)).toMatch(/dentist in Munich/);
    expect(languageOfQuestion(citationQuestion("Dentist", "Mumbai", day))).toBe("en");
    for (const language of ["fr", "es", "it", "pt", "nl"] as const) expect(languageOfQuestion(citationQuestion("Dentist", "X", day, language))).toBe(language);
    const doc = readFileSync(new URL("../../../../../docs/citation-checks.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    expect(doc).toContain(CITATION_QUESTION_LANGUAGE_RULE);
  });

  it("asks a city in Germany in German and stores the answer as German; a city of unknown language in English", async () => {
    const settings = settingsFor("stand-in-language");
    const germany = await pairIn("DE");
    const india = await pairIn("IN");
    const now = () => new Date();
    const [germanCheck] = await enqueueChecks(database.db, germany, settings.engines, now());
    const [englishCheck] = await enqueueChecks(database.db, india, settings.engines, now());
    expect(germanCheck!.query).toBe(citationQuestion(germany.categoryName, germany.cityName, germanCheck!.period, "de"));
    expect(englishCheck!.query).toBe(citationQuestion(india.categoryName, india.cityName, englishCheck!.period, "en"));
    const requests = engine.requests.length;
    const run = await runDueChecks(database.db, { settings, now });
    expect(run.checks.map((check) => check.status)).toEqual(["done", "done"]);
    expect(engine.requests.slice(requests).map((request) => request.question)).toEqual(expect.arrayContaining([germanCheck!.query, englishCheck!.query]));
    const stored = await database.db
      .select({ query: documents.query, language: documents.language })
      .from(documents)
      .where(eq(documents.model, "stand-in-language"));
    expect(stored).toEqual(
      expect.arrayContaining([
        { query: germanCheck!.query, language: "de" },
        { query: englishCheck!.query, language: "en" },
      ]),
    );
  });
});
