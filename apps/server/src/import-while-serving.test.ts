import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyOsmChanges, importFeed, keepImportedSnapshot, osmRegistryFeed, scanOsmExtract } from "@directory/api";
import { listingOfRecord, OSM_CHANGE_FILES, OSM_EXTRACTS } from "@directory/api/testing";
import { loadGazetteer } from "@directory/db/gazetteer";
import { getJson, startTestServer, type TestServer } from "./testing";

/*
 * Issue 41, safe to run: while change files are applied to the imported extract, the server keeps
 * answering (no 5xx on search or profiles), and a listing whose name and other facts change
 * together is read either as it was or as it became, never half of each (each batch is one
 * transaction).
 */

const SOURCE = "openstreetmap";
const gazetteer = loadGazetteer();
let server: TestServer;
let dataDir: string;
/** A listing that changes several facts at once between the snapshots, read through its profile. */
let watched: { slug: string; before: string; after: string };

type Profile = { contact: { phone: string | null; website: string | null; address: string | null } };
const factsOf = (profile: Profile) => JSON.stringify([profile.contact.address || null, profile.contact.phone, profile.contact.website]);

beforeAll(async () => {
  // Many reads from one address: the anonymous day's allowance is not what this test is about.
  server = await startTestServer({ seed: false, rateLimits: { anonymousPerDay: 100_000, openPerMinute: 100_000 } });
  dataDir = await mkdtemp(path.join(tmpdir(), "import-while-serving-"));
  const db = server.database.db;
  const feed = osmRegistryFeed(OSM_EXTRACTS.liechtenstein2013, { gazetteer });
  await importFeed(db, feed, { source: SOURCE });
  await keepImportedSnapshot(db, SOURCE, OSM_EXTRACTS.liechtenstein2013, dataDir, await feed.survey());
  const [before, after] = await Promise.all(
    [OSM_EXTRACTS.liechtenstein2013, OSM_EXTRACTS.liechtenstein2015].map((file) => scanOsmExtract(file, { gazetteer })),
  );
  // The extracts were renumbered between the snapshots: a listing continues by its name (registry-matching.ts).
  const later = new Map(after!.records.map((record) => [record.facts.name, record.facts]));
  const facts = (record: { address?: unknown; phone?: unknown; website?: unknown }) => [record.address ?? null, record.phone ?? null, record.website ?? null];
  const changing = before!.records.find((record) => {
    const next = later.get(record.facts.name);
    return next && facts(record.facts).filter((value, i) => value !== facts(next)[i]).length >= 2;
  })!;
  const { slug } = await listingOfRecord(db, changing.recordId);
  watched = { slug, before: JSON.stringify(facts(changing.facts)), after: JSON.stringify(facts(later.get(changing.facts.name)!)) };
}, 240_000);
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("applying change files while serving", () => {
  it("answers every search and profile read, each listing whole, before or after", async () => {
    let answered = 0;
    const failures: string[] = [];
    const seen = new Set<string>();
    let applying = true;
    const applied = applyOsmChanges(server.database.db, { source: SOURCE, files: OSM_CHANGE_FILES.liechtenstein2013to2015, dataDir }).finally(() => {
      applying = false;
    });
    const reads = (async () => {
      while (applying) {
        const [search, profile] = await Promise.all([
          getJson(server.url, "/api/v2/businesses?country=LI&category=restaurant"),
          getJson<Profile>(server.url, `/api/v2/entity-profile?slug=${watched.slug}`),
        ]);
        for (const { status, body } of [search, profile]) {
          answered++;
          if (status !== 200) failures.push(`${status} ${JSON.stringify(body).slice(0, 200)}`);
        }
        if (profile.status === 200) seen.add(factsOf(profile.body));
      }
    })();
    const summary = await applied;
    await reads;
    expect(summary.changed).toBeGreaterThan(0);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(4);
    const final = await getJson<Profile>(server.url, `/api/v2/entity-profile?slug=${watched.slug}`);
    expect(factsOf(final.body)).toBe(watched.after);
    for (const facts of seen) expect([watched.before, watched.after]).toContain(facts);
  });
});
