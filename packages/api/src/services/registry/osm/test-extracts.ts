import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { businesses, registryRecords, type Db } from "@directory/db";

/**
 * The real OSM extracts the tests and docs/osm-import.md's examples read (ODbL, © OpenStreetMap
 * contributors). They ship in the repository's fixtures/osm, so a clone tests on its own.
 */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "pnpm-workspace.yaml"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("test-extracts: pnpm-workspace.yaml not found above this file");
    dir = parent;
  }
  return dir;
}

export const OSM_EXTRACTS_DIR = path.join(repoRoot(), "fixtures", "osm");

export const OSM_EXTRACTS = {
  liechtenstein2013: path.join(OSM_EXTRACTS_DIR, "liechtenstein-2013-08.osm.pbf"),
  liechtenstein2015: path.join(OSM_EXTRACTS_DIR, "liechtenstein-2015-07.osm.pbf"),
  andorra2013: path.join(OSM_EXTRACTS_DIR, "andorra-2013-05.osm.pbf"),
} as const;

/** The change between the two Liechtenstein snapshots as two osmChange files, to apply in order (fixtures/osm/README.md says how they were made). */
export const OSM_CHANGE_FILES = {
  liechtenstein2013to2015: [1, 2].map((part) => path.join(OSM_EXTRACTS_DIR, `liechtenstein-2013-08-to-2015-07.${part}.osc.gz`)),
} as const;

/** The listing an imported record became: what tests that import an extract read its doors by. */
export async function listingOfRecord(db: Db, recordId: string, source = "openstreetmap"): Promise<{ slug: string; address: string | null }> {
  const [row] = await db
    .select({ slug: businesses.slug, address: businesses.address })
    .from(registryRecords)
    .innerJoin(businesses, eq(businesses.id, registryRecords.businessId))
    .where(and(eq(registryRecords.source, source), eq(registryRecords.recordId, recordId)));
  if (!row) throw new Error(`no listing for ${source} ${recordId}`);
  return row;
}
