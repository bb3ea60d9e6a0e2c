import { beforeAll, describe, expect, it } from "vitest";
import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { LARGER_CITY_RATIO, MAX_CITY_KM, resolveCity, urbanReachKm } from "./city-resolver";
import { countryCodesAt } from "./country-of-point";
import { scanOsmExtract } from "./scan-osm";
import { OSM_EXTRACTS } from "./test-extracts";

let gazetteer: Gazetteer;
beforeAll(() => {
  gazetteer = loadGazetteer();
});

const where = (lat: number, lng: number, addrCity: string | null = null) => {
  const city = resolveCity(gazetteer, lat, lng, addrCity);
  return city && `${city.name}, ${city.countryCode}`;
};

describe("the country a point is in", () => {
  it("reads it from the borders, the territory's code first", () => {
    expect(countryCodesAt(43.7394, 7.4276)).toEqual(["MC"]); // Hôtel de Paris, Monte-Carlo
    expect(countryCodesAt(43.7436, 7.4239)).toEqual(["FR"]); // Beausoleil, across the street
    expect(countryCodesAt(49.455, -2.536)).toEqual(["GG", "GB"]); // St Peter Port, Guernsey
    expect(countryCodesAt(40, -40)).toEqual([]); // mid-Atlantic
  });
});

describe("resolveCity", () => {
  it("files a business in the country it is in, never across the border", () => {
    // Beausoleil, France (13,000 people) is nearer than Monaco's centre; the point is in Monaco.
    expect(where(43.7394, 7.4276)).toBe("Monaco, MC");
    expect(where(43.7436, 7.4239)).toBe("Beausoleil, FR");
    // Bendern, Liechtenstein: Haag (Rheintal), Switzerland is nearer than any Liechtenstein place.
    expect(where(47.2106, 9.5028)).toBe("Gamprin, LI");
    // Buchs, Switzerland, tagged with a Liechtenstein town across the Rhine: still Buchs.
    expect(where(47.1674, 9.4779, "Schaan")).toBe("Buchs, CH");
    // Pas de la Casa, Andorra, by the French border.
    expect(where(42.5425, 1.7336)).toMatch(/, AD$/);
    // Out at sea no border says: any country's city within reach, else none.
    expect(where(40, -40)).toBeNull();
    expect(MAX_CITY_KM).toBe(25);
  });

  it("reads addr:city in the point's country, and known districts as their city", () => {
    expect(where(43.7394, 7.4276, "Monte-Carlo")).toBe("Monaco, MC");
    expect(where(43.7394, 7.4276, "MONTE CARLO")).toBe("Monaco, MC");
    expect(where(43.7394, 7.4276, "Beausoleil")).toBe("Monaco, MC");
    expect(where(47.198, 9.543, "Nendeln")).toBe("Eschen, LI");
    expect(where(42.5073, 1.5341, "Escaldes-Engordany")).toBe("les Escaldes, AD");
    // An alias only stands for a city within reach: "Monte-Carlo" in Vaduz is no reason for Monaco.
    expect(where(47.1405, 9.5215, "Monte-Carlo")).toBe("Vaduz, LI");
  });

  it("prefers the city a neighbourhood belongs to, and keeps a neighbour town of its own size", () => {
    // Johns Hopkins Hospital: Butcher's Hill (1,970 people) is nearest, inside Baltimore (620,000).
    expect(where(39.2963, -76.5928)).toBe("Baltimore, US");
    // The neighbourhood named in addr:city is kept: the address says so.
    expect(where(39.2963, -76.5928, "Butcher's Hill")).toBe("Butcher's Hill, US");
    // Les Escaldes is 1 km from Andorra la Vella, but not a tenth of its size: it keeps its own.
    expect(where(42.5073, 1.5341)).toBe("les Escaldes, AD");
    // Schaan is Vaduz's neighbour of the same size.
    expect(where(47.165, 9.5087)).toBe("Schaan, LI");
    // Penbrook (3,000 people) is 3 km from Harrisburg's centre, beyond the reach of its 49,000.
    expect(where(40.2754, -76.848)).toBe("Penbrook, US");
    expect(LARGER_CITY_RATIO).toBe(10);
    expect(urbanReachKm(621_849)).toBeCloseTo(4.45, 2);
    expect(urbanReachKm(0)).toBe(0);
  });
});

describe("resolveCity on the real extracts", () => {
  it("files every business near the Swiss, Austrian, Spanish and French borders in its own country", async () => {
    for (const file of [OSM_EXTRACTS.liechtenstein2015, OSM_EXTRACTS.andorra2013]) {
      const scan = await scanOsmExtract(file, { gazetteer });
      expect(scan.records.length).toBeGreaterThan(100);
      for (const record of scan.records) {
        // Where the extract's own border says otherwise (the Pfälzer Hütte), it wins: country-boundaries.test.ts.
        if (record.recordId === "way/145395030") continue;
        const { lat, lng } = record.facts.coordinates;
        expect(countryCodesAt(lat, lng), `${record.recordId} ${record.facts.name}`).toContain(record.city.countryCode);
      }
      const byName = (name: string) => scan.records.find((record) => record.facts.name === name)?.city;
      if (file === OSM_EXTRACTS.liechtenstein2015) {
        // The post office of Bendern, by the Rhine, was filed in Haag, Switzerland.
        expect(byName("Bendern Post")?.name).toBe("Gamprin");
      } else {
        // A mountain hut past Andorra's southern border is in Spain.
        expect(byName("Refugi dels Estanys de la Pera")?.countryCode).toBe("ES");
      }
    }
  });
});
