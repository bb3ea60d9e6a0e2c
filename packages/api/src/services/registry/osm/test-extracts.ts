import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real OSM extracts the tests read (ODbL, © OpenStreetMap contributors) live outside the
 * checkout, in ../shared/data/osm beside it. CI has them: there a missing folder fails the tests;
 * elsewhere the tests that need them are skipped, saying why.
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

export const OSM_EXTRACTS_DIR = path.resolve(repoRoot(), "..", "shared", "data", "osm");

export const OSM_EXTRACTS = {
  liechtenstein2013: path.join(OSM_EXTRACTS_DIR, "liechtenstein-2013-08.osm.pbf"),
  liechtenstein2015: path.join(OSM_EXTRACTS_DIR, "liechtenstein-2015-07.osm.pbf"),
  andorra2013: path.join(OSM_EXTRACTS_DIR, "andorra-2013-05.osm.pbf"),
} as const;

const missing = Object.values(OSM_EXTRACTS).filter((file) => !existsSync(file));

/** Why the extract tests cannot run here, or null when they can. Throws in CI, where they must run. */
export function osmExtractsUnavailable(): string | null {
  if (missing.length === 0) return null;
  const reason = `OSM test extracts missing (expected beside the checkout in ${OSM_EXTRACTS_DIR}): ${missing.map((file) => path.basename(file)).join(", ")}`;
  if (process.env.CI) throw new Error(`${reason}; CI must provide ../shared/data/osm`);
  return reason;
}
