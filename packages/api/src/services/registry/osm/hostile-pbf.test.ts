import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGazetteer, type Gazetteer } from "@directory/db/gazetteer";
import { scanOsmExtract } from "./scan-osm";
import { blobHeader, fileBlock, headerBlock, nodesBlock, osmPbfFile, rawZlibBlob, varint, zlibBlob, type TestNode } from "./pbf-test-files";

/* Files an attacker or a broken disk could hand the importer: each is refused by name and place, never with a stack. */

let gazetteer: Gazetteer;
let dir: string;
beforeAll(async () => {
  gazetteer = loadGazetteer();
  dir = await mkdtemp(path.join(tmpdir(), "hostile-pbf-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MIB = 1024 * 1024;
const VADUZ = { minLat: 47.0, minLng: 9.4, maxLat: 47.3, maxLng: 9.7 };
const cafe = (id: number, timestamp = 1_400_000_000): TestNode => ({ id, lat: 47.14, lng: 9.52, tags: { name: `Cafe ${id}`, amenity: "cafe" }, timestamp });
const goodHeader = () => fileBlock("OSMHeader", zlibBlob(headerBlock({ bbox: VADUZ })));

async function fileOf(name: string, ...parts: Buffer[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, Buffer.concat(parts));
  return file;
}

/** The scan's failure: an error whose message names the file and the offset of the block at fault, with no stack in it. */
async function refusal(file: string): Promise<{ name: string; message: string }> {
  const error = await scanOsmExtract(file, { gazetteer }).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error, "the scan should have failed").toBeInstanceOf(Error);
  const { name, message } = error as Error;
  expect(message).not.toMatch(/\n\s+at /);
  return { name, message };
}

describe("the OSM PBF reader on hostile files", () => {
  it("refuses a blob whose zlib data is corrupt, naming the file and the block's offset", async () => {
    const header = goodHeader();
    const file = await fileOf("corrupt-zlib.osm.pbf", header, fileBlock("OSMData", rawZlibBlob(Buffer.from("this was never zlib data"), 200)));
    const { name, message } = await refusal(file);
    expect(name).toBe("OsmFileError");
    expect(message).toBe(`OSM PBF file ${file}, block at byte ${header.length}: the blob's zlib data is corrupt (incorrect header check)`);
  });

  it("refuses a garbage block header, naming the file and the block's offset", async () => {
    const header = goodHeader();
    const garbage = Buffer.from("this is not a blob header at all");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(garbage.length);
    const file = await fileOf("garbage-header.osm.pbf", header, length, garbage, Buffer.alloc(64));
    const { message } = await refusal(file);
    expect(message).toMatch(new RegExp(`^OSM PBF file ${file}, block at byte ${header.length}: a field of unknown wire type \\d$`));
  });

  it("refuses a block header over 64 KiB and a blob over 32 MiB before reading them", async () => {
    const header = goodHeader();
    const hugeHeader = Buffer.alloc(4);
    hugeHeader.writeUInt32BE(MIB);
    const bigHeader = await fileOf("big-header.osm.pbf", header, hugeHeader, Buffer.alloc(16));
    expect((await refusal(bigHeader)).message).toBe(
      `OSM PBF file ${bigHeader}, block at byte ${header.length}: the block header declares ${MIB} bytes, more than the 65536 a PBF block header may have`,
    );
    const declared = blobHeader("OSMData", 64 * MIB);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(declared.length);
    const bigBlob = await fileOf("big-blob.osm.pbf", header, length, declared, Buffer.alloc(16));
    expect((await refusal(bigBlob)).message).toBe(
      `OSM PBF file ${bigBlob}, block at byte ${header.length}: the blob header declares ${64 * MIB} bytes, more than the ${32 * MIB} a PBF blob may have`,
    );
  });

  it("stops a zlib bomb at 32 MiB, whether it declares its size or lies about it", async () => {
    const header = goodHeader();
    // 40 MiB of zeros deflate to a few dozen KiB.
    const bomb = deflateSync(Buffer.alloc(40 * MIB));
    expect(bomb.length).toBeLessThan(MIB);
    const honest = await fileOf("bomb-honest.osm.pbf", header, fileBlock("OSMData", rawZlibBlob(bomb, 40 * MIB)));
    expect((await refusal(honest)).message).toBe(
      `OSM PBF file ${honest}, block at byte ${header.length}: the blob declares ${40 * MIB} bytes inflated, more than the ${32 * MIB} a PBF blob may have`,
    );
    const lying = await fileOf("bomb-lying.osm.pbf", header, fileBlock("OSMData", rawZlibBlob(bomb, 1000)));
    expect((await refusal(lying)).message).toBe(
      `OSM PBF file ${lying}, block at byte ${header.length}: the blob inflates to more than the ${32 * MIB} bytes a PBF blob may have`,
    );
  });

  it("refuses a field that claims more bytes than its block has", async () => {
    const header = goodHeader();
    // A primitive group that says it is a terabyte long, in a block of a few bytes.
    const block = Buffer.concat([nodesBlock([cafe(1)]), varint((2 << 3) | 2), varint(2 ** 40), Buffer.from([0x0a, 0x00])]);
    const file = await fileOf("long-field.osm.pbf", header, fileBlock("OSMData", zlibBlob(block)));
    expect((await refusal(file)).message).toBe(
      `OSM PBF file ${file}, block at byte ${header.length}: a field of ${2 ** 40} bytes runs past the end of its message`,
    );
  });

  it("refuses a file that requires a feature the reader lacks, naming it", async () => {
    const file = await fileOf("history.osm.pbf", osmPbfFile({ bbox: VADUZ, requiredFeatures: ["OsmSchema-V0.6", "HistoricalInformation"] }, [cafe(1)]));
    expect((await refusal(file)).message).toBe(
      `OSM PBF file ${file}, block at byte 0: the file requires HistoricalInformation, which this reader does not support (it reads OsmSchema-V0.6, DenseNodes)`,
    );
  });

  it("names a file that breaks off inside a block", async () => {
    const header = goodHeader();
    const data = fileBlock("OSMData", zlibBlob(nodesBlock([cafe(1), cafe(2)])));
    const file = await fileOf("cut.osm.pbf", header, data.subarray(0, data.length - 5));
    expect((await refusal(file)).message).toMatch(
      new RegExp(`^OSM PBF file ${file}, block at byte ${header.length}: the file ends \\d+ bytes into the blob of \\d+ bytes \\(truncated\\)$`),
    );
  });

  it("reports a business that appears twice by its element, the file and the block", async () => {
    const header = goodHeader();
    const file = await fileOf(
      "twice.osm.pbf",
      header,
      fileBlock("OSMData", zlibBlob(nodesBlock([cafe(7), cafe(8), { ...cafe(7), tags: { name: "Cafe Again", amenity: "cafe" } }]))),
    );
    expect((await refusal(file)).message).toBe(`OSM PBF file ${file}, block at byte ${header.length}: node 7 appears twice`);
  });

  it("dates no record later than now, however far ahead the file says it was edited", async () => {
    const year3000 = Date.UTC(3000, 0, 1) / 1000;
    const before = Date.now();
    const file = await fileOf(
      "future.osm.pbf",
      osmPbfFile({ bbox: VADUZ, replicationTimestamp: year3000 }, [cafe(1, year3000), { ...cafe(2), timestamp: undefined }]),
    );
    const scan = await scanOsmExtract(file, { gazetteer });
    const after = Date.now();
    expect(scan.records.map((record) => record.recordId)).toEqual(["node/1", "node/2"]);
    for (const record of scan.records) {
      expect(record.observedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(record.observedAt.getTime()).toBeLessThanOrEqual(after);
    }
  });

  it("still reads the well-formed files built the same way", async () => {
    const file = await fileOf("good.osm.pbf", osmPbfFile({ bbox: VADUZ }, [cafe(1), cafe(2)]));
    const scan = await scanOsmExtract(file, { gazetteer });
    expect(scan.records.map((record) => [record.recordId, record.facts.name, record.city.name, record.observedAt.toISOString()])).toEqual([
      ["node/1", "Cafe 1", "Vaduz", "2014-05-13T16:53:20.000Z"],
      ["node/2", "Cafe 2", "Vaduz", "2014-05-13T16:53:20.000Z"],
    ]);
    expect(scan.area).toEqual(VADUZ);
    // A block of a type the reader does not know is skipped, as the format says.
    const [headerPart, dataPart] = [goodHeader(), fileBlock("OSMData", zlibBlob(nodesBlock([cafe(1), cafe(2)])))];
    const extra = await fileOf("extra-block.osm.pbf", headerPart, fileBlock("OSMIndex", Buffer.from("whatever the writer keeps here")), dataPart);
    expect((await scanOsmExtract(extra, { gazetteer })).records).toHaveLength(2);
  });
});
