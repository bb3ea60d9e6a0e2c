import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { Database } from "./client";
import { dbPackageDir } from "./package-dir";

/** Applies the committed drizzle-kit migrations; the same files on PGlite and PostgreSQL. */
export async function migrate(database: Database): Promise<void> {
  // From the package, not from import.meta.url: bundled, that is apps/server/dist/main.js.
  const migrationsFolder = path.join(dbPackageDir(), "migrations");
  if (database.driver === "pglite") {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
  } else {
    await migratePostgres(database.db as unknown as PostgresJsDatabase, { migrationsFolder });
  }
}
