import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distanceKm, loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { assembleRings } from "./boundary-rings";
import { resolveCity } from "./city-resolver";
import { countryBoundaryRelation, CountryBoundaries, readCountryBoundaries, type BoundaryRelation } from "./country-boundaries";
import { countryCodesAt } from "./country-of-point";
import { emptyCounts, osmRecord } from "./osm-record";
import { fileBlock, headerBlock, nodesBlock, relationsBlock, waysBlock, zlibBlob, type TestNode, type TestRelation, type TestWay } from "./pbf-test-files";
import { readOsmPbf, type OsmElement } from "./pbf-reader";
import { scanOsmExtract } from "./scan-osm";
import { OSM_EXTRACTS } from "./test-extracts";

let gazetteer: Gazetteer;
let dir: string;
beforeAll(async () => {
  gazetteer = loadGazetteer();
  dir = await mkdtemp(path.join(tmpdir(), "country-boundaries-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("assembleRings", () => {
  it("joins ways end to end whichever way each runs, and refuses what does not close", () => {
    // A square 1-2-3-4 drawn as three ways, the middle one backwards.
    expect(
      assembleRings([
        [1, 2],
        [3, 2],
        [3, 4, 1],
      ]),
    ).toEqual([[1, 2, 3, 4, 1]]);
    // A closed way alone, and an outer ring with an inner one.
    expect(
      assembleRings([
        [5, 6, 7, 5],
        [1, 2],
        [2, 3, 4, 1],
      ]),
    ).toEqual([
      [5, 6, 7, 5],
      [1, 2, 3, 4, 1],
    ]);
    // A way missing (clipped by the extract): nothing closes.
    expect(
      assembleRings([
        [1, 2],
        [3, 4, 1],
      ]),
    ).toBeNull();
    expect(assembleRings([[1, 2, 3]])).toBeNull();
    expect(assembleRings([])).toBeNull();
  });
});

const country = (code: string, level = "2") => ({ boundary: "administrative", admin_level: level, "ISO3166-1": code });

/** A square around Sevelen, Switzerland filed as Liechtenstein with a hole around Buchs; boundaries that must not count beside it. */
async function syntheticExtract(): Promise<string> {
  const nodes: TestNode[] = [
    { id: 1, lat: 47.1, lng: 9.4 },
    { id: 2, lat: 47.1, lng: 9.5 },
    { id: 3, lat: 47.2, lng: 9.5 },
    { id: 4, lat: 47.2, lng: 9.4 },
    // The hole around Buchs (47.1674, 9.4779).
    { id: 5, lat: 47.16, lng: 9.47 },
    { id: 6, lat: 47.16, lng: 9.49 },
    { id: 7, lat: 47.18, lng: 9.49 },
    // A ring whose third node the extract lacks, and an open line.
    { id: 20, lat: 47.3, lng: 9.6 },
    { id: 21, lat: 47.3, lng: 9.7 },
    { id: 30, lat: 47.0, lng: 9.6 },
  ];
  const ways: TestWay[] = [
    { id: 100, refs: [1, 2] },
    { id: 101, refs: [3, 2] },
    { id: 102, refs: [3, 4, 1] },
    { id: 103, refs: [5, 6, 7, 5] },
    { id: 200, refs: [20, 21, 22, 20] },
    { id: 300, refs: [30, 20] },
  ];
  const relations: TestRelation[] = [
    {
      id: 1000,
      tags: { ...country("li"), name: "Liechtenstein" },
      members: [
        { type: "node", ref: 4, role: "admin_centre" },
        { type: "way", ref: 102, role: "outer" },
        { type: "way", ref: 100, role: "outer" },
        { type: "way", ref: 101, role: "outer" },
        { type: "way", ref: 103, role: "inner" },
      ],
    },
    // Clipped: one way in the file, one beyond it.
    {
      id: 1001,
      tags: country("AT"),
      members: [
        { type: "way", ref: 300, role: "outer" },
        { type: "way", ref: 999, role: "outer" },
      ],
    },
    // Its ring closes by ids, but a node is missing.
    { id: 1002, tags: country("CH"), members: [{ type: "way", ref: 200, role: "outer" }] },
    // Closed, but a region, not a country.
    { id: 1003, tags: country("FR", "4"), members: [{ type: "way", ref: 103, role: "outer" }] },
  ];
  const file = path.join(dir, "boundaries.osm.pbf");
  await writeFile(
    file,
    Buffer.concat([
      fileBlock("OSMHeader", zlibBlob(headerBlock())),
      fileBlock("OSMData", zlibBlob(nodesBlock(nodes))),
      fileBlock("OSMData", zlibBlob(waysBlock(ways))),
      fileBlock("OSMData", zlibBlob(relationsBlock(relations))),
    ]),
  );
  return file;
}

describe("readCountryBoundaries on a synthetic extract", () => {
  it("keeps the boundary whose rings close, and files points by it over country-coder's", async () => {
    const file = await syntheticExtract();
    const boundaries = await readCountryBoundaries(file);
    expect(boundaries.codes).toEqual(["LI"]);
    // Inside the square: country-coder says Switzerland, the extract's boundary Liechtenstein.
    expect(countryCodesAt(47.12, 9.45)).toEqual(["CH"]);
    expect(boundaries.countryCodesAt(47.12, 9.45)).toEqual(["LI"]);
    // In the hole, and outside the square where country-coder does not say LI: country-coder's answer.
    expect(boundaries.countryCodesAt(47.1674, 9.4779)).toEqual(["CH"]);
    expect(boundaries.countryCodesAt(47.2, 9.7)).toEqual(["AT"]);
    // Vaduz is outside this (made-up) Liechtenstein: the nearest country around it without a boundary of its own.
    expect(countryCodesAt(47.1405, 9.5215)).toEqual(["LI"]);
    expect(boundaries.countryCodesAt(47.1405, 9.5215)).toEqual(["CH"]);
  });

  it("takes the boundary relations from a caller that read them (the survey), and reads nothing when there are none", async () => {
    const file = await syntheticExtract();
    const relations: BoundaryRelation[] = [];
    const visitor = {
      element(element: OsmElement) {
        const boundary = element.type === "relation" ? countryBoundaryRelation(element) : null;
        if (boundary) relations.push(boundary);
      },
    };
    await readOsmPbf(file, { withTags: true, withInfo: false }, visitor);
    expect(relations.map(({ id, code }) => [id, code])).toEqual([
      [1000, "LI"],
      [1001, "AT"],
      [1002, "CH"],
    ]);
    expect((await readCountryBoundaries(file, relations)).codes).toEqual(["LI"]);
    // No such file: with no relations, nothing is read.
    const none = await readCountryBoundaries(path.join(dir, "not-read.osm.pbf"), []);
    expect(none).toBeInstanceOf(CountryBoundaries);
    expect(none.countryCodesAt(47.12, 9.45)).toEqual(["CH"]);
  });
});

describe("readCountryBoundaries on the real extracts", () => {
  let liechtenstein: CountryBoundaries;
  beforeAll(async () => {
    liechtenstein = await readCountryBoundaries(OSM_EXTRACTS.liechtenstein2015);
  });

  it("finds Liechtenstein's boundary whole, and leaves the clipped ones out", async () => {
    expect(liechtenstein.codes).toEqual(["LI"]);
    expect((await readCountryBoundaries(OSM_EXTRACTS.liechtenstein2013)).codes).toEqual(["LI"]);
    // Andorra's boundary relation lists 19 ways; the 2013 extract lacks two, so country-coder decides there.
    expect((await readCountryBoundaries(OSM_EXTRACTS.andorra2013)).codes).toEqual([]);
  });

  it.each(["liechtenstein2013", "liechtenstein2015"] as const)("%s: files every business in Liechtenstein, the Pfälzer Hütte too", async (name) => {
    const boundaries = await readCountryBoundaries(OSM_EXTRACTS[name]);
    const scan = await scanOsmExtract(OSM_EXTRACTS[name], { gazetteer });
    const tags = await tagsOf(OSM_EXTRACTS[name], new Set(scan.records.map((record) => record.recordId)));
    const context = { gazetteer, fallbackTimestamp: undefined, newestEdit: new Date(), countryCodesAt: boundaries.countryCodesAt };
    const candidateOf = (record: (typeof scan.records)[number]) => ({
      recordId: record.recordId,
      tags: tags.get(record.recordId)!,
      category: record.facts.category,
      timestamp: record.observedAt.getTime(),
      point: record.facts.coordinates,
    });
    const filed = scan.records.map((record) => osmRecord(candidateOf(record), context, emptyCounts()));
    // The feed reads the same boundaries.
    expect(filed.map((record) => record?.city.id)).toEqual(scan.records.map((record) => record.city.id));
    expect(filed.length).toBeGreaterThan(130);
    expect(filed.filter((record) => record?.city.countryCode !== "LI")).toEqual([]);
    const hut = filed.find((record) => record?.facts.name === "Pfälzer Hütte")!;
    expect(hut.city).toMatchObject({ name: "Triesenberg", countryCode: "LI" });
    // country-coder's simplified border alone puts the hut in Austria, filed in Brand.
    const { lat, lng } = hut.facts.coordinates;
    expect(countryCodesAt(lat, lng)).toEqual(["AT"]);
    const hutRecord = scan.records.find((record) => record.recordId === hut.recordId)!;
    expect(osmRecord(candidateOf(hutRecord), { ...context, countryCodesAt: undefined }, emptyCounts())?.city.name).toBe("Brand");
  });

  it("files points just across the border, which country-coder puts in Liechtenstein, in Switzerland or Austria as the border says", async () => {
    const across = await borderNeighbour(OSM_EXTRACTS.liechtenstein2015);
    const checked: string[] = [];
    for (let lat = 47.04; lat <= 47.28; lat += 0.002) {
      for (let lng = 9.46; lng <= 9.64; lng += 0.002) {
        if (!countryCodesAt(lat, lng).includes("LI")) continue;
        const codes = liechtenstein.countryCodesAt(lat, lng);
        if (codes[0] === "LI") continue;
        const expected = across(lat, lng);
        if (expected === null) continue; // too near a tripoint to say
        expect(codes, `${lat}, ${lng}`).toEqual([expected]);
        expect(resolveCity(gazetteer, lat, lng, null, liechtenstein.countryCodesAt)?.countryCode).toBe(expected);
        checked.push(expected);
      }
    }
    expect(checked.filter((code) => code === "CH").length).toBeGreaterThan(10);
    expect(checked.filter((code) => code === "AT").length).toBeGreaterThan(10);
    // Towns across the Rhine and the Alps keep their own country.
    expect(resolveCity(gazetteer, 47.1674, 9.4779, "Schaan", liechtenstein.countryCodesAt)).toMatchObject({ name: "Buchs", countryCode: "CH" });
    expect(liechtenstein.countryCodesAt(47.2372, 9.598)).toEqual(["AT"]); // Feldkirch
  });
});

/** The tags of the elements named by record id ("node/1"). */
async function tagsOf(file: string, recordIds: ReadonlySet<string>): Promise<Map<string, Record<string, string>>> {
  const tags = new Map<string, Record<string, string>>();
  await readOsmPbf(
    file,
    { withTags: true, withInfo: false },
    { element: (element) => void (recordIds.has(`${element.type}/${element.id}`) && tags.set(`${element.type}/${element.id}`, element.tags ?? {})) },
  );
  return tags;
}

/**
 * Which neighbour a point outside Liechtenstein is in, read from the extract as a mapper would:
 * Liechtenstein's border ways that are also Austria's are the Austrian border, the rest the
 * Swiss; the point is across the border whose node is nearest. Null within 1 km of a tripoint.
 */
async function borderNeighbour(file: string): Promise<(lat: number, lng: number) => string | null> {
  const memberWays = new Map<string, Set<number>>();
  const wayRefs = new Map<number, number[]>();
  const points = new Map<number, [number, number]>();
  await readOsmPbf(
    file,
    { withTags: true, withInfo: false },
    {
      element(element) {
        if (element.type === "node") points.set(element.id, [element.lat, element.lon]);
        else if (element.type === "way") wayRefs.set(element.id, element.refs);
        else {
          const code = element.tags?.admin_level === "2" ? element.tags["ISO3166-1"] : undefined;
          if (code) memberWays.set(code.toUpperCase(), new Set(element.members.filter((member) => member.type === "way").map((member) => member.ref)));
        }
      },
    },
  );
  const borderNodes: { lat: number; lng: number; code: string }[] = [];
  for (const way of memberWays.get("LI")!) {
    const code = memberWays.get("AT")!.has(way) ? "AT" : "CH";
    for (const ref of wayRefs.get(way)!) {
      const [lat, lng] = points.get(ref)!;
      borderNodes.push({ lat, lng, code });
    }
  }
  const tripoints = borderNodes.filter((node) => borderNodes.some((other) => other.code !== node.code && other.lat === node.lat && other.lng === node.lng));
  expect(tripoints.length).toBeGreaterThanOrEqual(2);
  return (lat, lng) => {
    if (tripoints.some((node) => distanceKm(lat, lng, node.lat, node.lng) < 1)) return null;
    let nearest = borderNodes[0]!;
    for (const node of borderNodes) if (distanceKm(lat, lng, node.lat, node.lng) < distanceKm(lat, lng, nearest.lat, nearest.lng)) nearest = node;
    return nearest.code;
  };
}
