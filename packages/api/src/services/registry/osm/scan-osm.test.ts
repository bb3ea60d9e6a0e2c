import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distanceKm, loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import type { RegistryScan } from "../registry-record";
import { MAX_CITY_KM, resolveCity } from "./city-resolver";
import { scanOsmExtract } from "./scan-osm";
import { OSM_EXTRACTS } from "./test-extracts";

let gazetteer: Gazetteer;
beforeAll(() => {
  gazetteer = loadGazetteer();
});

describe("resolveCity", () => {
  it("takes addr:city when a city of that name is near, else the nearest, and never one beyond 25 km", () => {
    // In Vaduz, tagged Schaan (3 km away): Schaan; untagged: Vaduz, the nearest.
    expect(resolveCity(gazetteer, 47.1405, 9.5215, "Schaan")?.name).toBe("Schaan");
    expect(resolveCity(gazetteer, 47.1405, 9.5215, null)?.name).toBe("Vaduz");
    expect(resolveCity(gazetteer, 47.1405, 9.5215, "VADUZ")?.name).toBe("Vaduz");
    // A name matching a far city is ignored (Paris, France is not 25 km from Vaduz).
    expect(resolveCity(gazetteer, 47.1405, 9.5215, "Paris")?.name).toBe("Vaduz");
    // Diacritics do not matter: "Sant Julia de Loria" is Sant Julià de Lòria.
    expect(resolveCity(gazetteer, 42.4637, 1.4913, "Sant Julia de Loria")?.name).toBe("Sant Julià de Lòria");
    // Mid-Atlantic: nothing within 25 km.
    expect(resolveCity(gazetteer, 40, -40, null)).toBeNull();
    expect(MAX_CITY_KM).toBe(25);
  });
});

describe("scanOsmExtract on bad files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "scan-osm-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names a missing file", async () => {
    const file = path.join(dir, "missing.osm.pbf");
    await expect(scanOsmExtract(file, { gazetteer })).rejects.toThrow(`OSM extract not found: ${file}`);
  });

  it("refuses a text file and an empty file as not PBF", async () => {
    const text = path.join(dir, "x.txt");
    await writeFile(text, "hello, this is not an extract\n".repeat(100));
    await expect(scanOsmExtract(text, { gazetteer })).rejects.toThrow(`Not an OSM PBF file: ${text}`);
    const empty = path.join(dir, "empty.osm.pbf");
    await writeFile(empty, "");
    await expect(scanOsmExtract(empty, { gazetteer })).rejects.toThrow(`Not an OSM PBF file: ${empty} (the file is empty)`);
  });

  it("refuses a bad source name before reading", async () => {
    await expect(scanOsmExtract(path.join(dir, "any.pbf"), { source: "Open Street Map" })).rejects.toThrow('Invalid source "Open Street Map"');
  });

  it("names a truncated PBF", async () => {
    const truncated = path.join(dir, "truncated.osm.pbf");
    const bytes = await readFile(OSM_EXTRACTS.liechtenstein2013);
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(scanOsmExtract(truncated, { gazetteer })).rejects.toThrow(
      new RegExp(`^OSM PBF file ${truncated}, block at byte \\d+: the file ends \\d+ bytes into the blob of \\d+ bytes \\(truncated\\)$`),
    );
    // A whole copy under another name still reads: the error is about the bytes, not the path.
    const whole = path.join(dir, "whole.osm.pbf");
    await copyFile(OSM_EXTRACTS.liechtenstein2013, whole);
    await expect(scanOsmExtract(whole, { gazetteer })).resolves.toMatchObject({ elements: 72_967 });
  });
});

describe("scanOsmExtract on real extracts", () => {
  const scans: Record<string, RegistryScan> = {};
  beforeAll(async () => {
    for (const [name, file] of Object.entries(OSM_EXTRACTS)) scans[name] = await scanOsmExtract(file, { gazetteer });
  });

  const categories = (scan: RegistryScan) => new Set(scan.records.map((record) => record.facts.category));
  const cities = (scan: RegistryScan) => new Set(scan.records.map((record) => record.city.name));

  it.each(["liechtenstein2013", "liechtenstein2015"])("%s: businesses in Vaduz and Schaan, with restaurants, hotels and supermarkets", (name) => {
    const scan = scans[name]!;
    expect(scan.records.length).toBeGreaterThan(100);
    expect(scan.elements).toBeGreaterThan(70_000);
    expect([...categories(scan)]).toEqual(expect.arrayContaining(["restaurant", "hotel", "grocery-store", "bank", "fuel-station", "post-office", "museum"]));
    expect([...cities(scan)]).toEqual(expect.arrayContaining(["Vaduz", "Schaan"]));
    expect(scan.records.find((record) => record.city.name === "Vaduz")?.city).toMatchObject({ countryCode: "LI", id: 3042030 });
    expect(scan.area).toEqual({ minLat: 47.04774, minLng: 9.471078, maxLat: 47.27128, maxLng: 9.636217 });
  });

  it.each(["liechtenstein2013", "liechtenstein2015"])("%s: the extract's own border files every business in Liechtenstein, the Pfälzer Hütte too", (name) => {
    const records = scans[name]!.records;
    expect(new Set(records.map((record) => record.city.countryCode))).toEqual(new Set(["LI"]));
    // On the ridge with Austria: country-coder's simplified border alone puts it in Brand, AT.
    if (name === "liechtenstein2015")
      expect(records.find((record) => record.recordId === "way/145395030")?.city).toMatchObject({ countryCode: "LI", name: "Triesenberg" });
  });

  it.each(Object.keys(OSM_EXTRACTS))("%s: every record is within 25 km of its city, with sane facts", (name) => {
    for (const record of scans[name]!.records) {
      const { lat, lng } = record.facts.coordinates;
      expect(distanceKm(lat, lng, record.city.lat, record.city.lng)).toBeLessThanOrEqual(25);
      expect(record.recordId).toMatch(/^(node|way|relation)\/\d+$/);
      expect(record.confidence).toBeGreaterThan(0);
      expect(record.confidence).toBeLessThanOrEqual(1);
      expect(record.observedAt.getTime()).toBeGreaterThan(Date.UTC(2004, 0, 1));
      if (record.facts.phone !== undefined) expect(record.facts.phone).toMatch(/^\+\d{7,15}$/);
      if (record.facts.website !== undefined) expect(record.facts.website).toMatch(/^https?:\/\//);
    }
  });

  it("places ways at the centroid of their nodes", () => {
    const ways = scans.liechtenstein2015!.records.filter((record) => record.recordId.startsWith("way/"));
    expect(ways.length).toBeGreaterThan(10);
    const area = scans.liechtenstein2015!.area!;
    for (const way of ways) {
      expect(way.facts.coordinates.lat).toBeGreaterThan(area.minLat);
      expect(way.facts.coordinates.lat).toBeLessThan(area.maxLat);
      expect(way.facts.coordinates.lng).toBeGreaterThan(area.minLng - 0.05);
      expect(way.facts.coordinates.lng).toBeLessThan(area.maxLng + 0.05);
    }
  });

  it("reports what it left out: street furniture, unmapped tags with counts, unparsed hours", () => {
    const scan = scans.liechtenstein2013!;
    expect(scan.skipped["not a business"]).toBeGreaterThan(10);
    expect(scan.unmappedTags["amenity=place_of_worship"]).toBe(13);
    const unmapped = Object.values(scan.unmappedTags).reduce((sum, n) => sum + n, 0);
    expect(scan.skipped["unmapped category"]).toBe(unmapped);
    expect(scan.unparsedOpeningHours).toEqual({ "Mo,Do,Fr 08.30-22.00;Sa 17:00-24:00;So 10:00-22:00": 1 });
    // Its hours are kept raw, without a structured guess.
    const raw = scan.records.find((record) => record.facts.openingHoursText === "Mo,Do,Fr 08.30-22.00;Sa 17:00-24:00;So 10:00-22:00");
    expect(raw?.facts.openingHours).toBeUndefined();
  });

  it("reads a business's facts: the Landesmuseum in Vaduz", () => {
    const museum = scans.liechtenstein2015!.records.find((record) => record.facts.name === "Liechtensteinisches Landesmuseum Vaduz");
    expect(museum).toMatchObject({
      recordId: "node/315636837",
      city: { name: "Vaduz" },
      facts: {
        category: "museum",
        phone: "+4232396820",
        website: "https://www.landesmuseum.li/",
        address: "Städtle 43",
        postalCode: "9490",
        openingHoursText: "Tu-Su 10:00-17:00; We 10:00-20:00",
      },
    });
    expect(museum!.observedAt).toEqual(new Date("2011-10-03T20:45:28Z"));
  });

  it("resolves Andorra la Vella in Andorra", () => {
    const scan = scans.andorra2013!;
    expect(scan.records.length).toBeGreaterThan(100);
    expect(cities(scan)).toContain("Andorra la Vella");
    expect(scan.records.every((record) => record.city.countryCode === "AD" || record.city.countryCode === "FR" || record.city.countryCode === "ES")).toBe(true);
  });

  it("scans the same file to the same result", async () => {
    const again = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2013, { gazetteer });
    expect(JSON.stringify(again)).toBe(JSON.stringify(scans.liechtenstein2013));
  });
});
