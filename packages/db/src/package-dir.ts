import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const PACKAGE_NAME = "@directory/db";

let found: string | undefined;

/**
 * The @directory/db package folder, which holds the migrations and whose node_modules hold the
 * city datasets. Found by the package's name rather than next to this file: bundled into
 * apps/server/dist, import.meta.url is the bundle's. Works from source (tsx, vitest) too, where
 * the name resolves to this package itself.
 */
export function dbPackageDir(): string {
  if (found) return found;
  let dir = path.dirname(createRequire(import.meta.url).resolve(PACKAGE_NAME));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME) return (found = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: package.json not found above ${createRequire(import.meta.url).resolve(PACKAGE_NAME)}`);
    dir = parent;
  }
}

/** A require() that resolves as the @directory/db package does (its own dependencies). */
export function dbPackageRequire(): NodeJS.Require {
  return createRequire(path.join(dbPackageDir(), "package.json"));
}
