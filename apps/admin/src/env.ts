import { citationVariables } from "@directory/api";
import { databaseEnvironment, databaseOptionsOf, forChores, optionalText, parseEnvironment, url, type DatabaseOptions } from "@directory/db";
import { z } from "zod";

/**
 * Every variable the admin CLI reads: the server it talks to, its key, and the database its `db`,
 * `graph`, `import` and `citations` chores open directly (the server's own DATABASE_URL / DATA_DIR settings).
 */
export const adminEnvironmentSchema = z.object({
  ...databaseEnvironment,
  DIRECTORY_URL: url(["http:", "https:"], "http://localhost:3000"),
  /** Else DATA_DIR/admin.key, the key the server wrote on its first start. */
  DIRECTORY_ADMIN_KEY: optionalText(),
  /** `citations run` asks the engines itself, with the server's settings. */
  ...citationVariables,
});

export type AdminEnvironment = z.output<typeof adminEnvironmentSchema>;

let parsed: AdminEnvironment | undefined;

/** process.env parsed once; a bad value throws an EnvironmentError naming it (cli.ts prints it in one line). */
export function adminEnvironment(): AdminEnvironment {
  parsed ??= parseEnvironment(adminEnvironmentSchema, process.env);
  return parsed;
}

/** The database the chores open, without the statement timeout that bounds a request's queries. */
export function choreDatabaseOptions(env: AdminEnvironment = adminEnvironment()): DatabaseOptions {
  return forChores(databaseOptionsOf(env));
}
