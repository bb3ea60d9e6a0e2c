import { EnvironmentError, parseEnvironment } from "@directory/db";
import { describe, expect, it } from "vitest";
import { adminEnvironmentSchema, choreDatabaseOptions } from "./env";
import { resolveAdminKey } from "./key-source";

const parse = (env: NodeJS.ProcessEnv) => parseEnvironment(adminEnvironmentSchema, env);

describe("the admin CLI's environment", () => {
  it("holds the documented defaults: the local server, the embedded database in ./.data", () => {
    const env = parse({});
    expect(env.DIRECTORY_URL).toBe("http://localhost:3000");
    expect(env.DIRECTORY_ADMIN_KEY).toBeUndefined();
    expect(choreDatabaseOptions(env)).toEqual({ dataDir: "./.data/pglite" });
    expect(resolveAdminKey("explicit", env)).toBe("explicit");
    expect(resolveAdminKey(undefined, parse({ DIRECTORY_ADMIN_KEY: "from-env" }))).toBe("from-env");
  });

  it("opens PostgreSQL for chores without the statement timeout, keeping the others", () => {
    const env = parse({ DATABASE_URL: "postgresql://db/directory", DB_CONNECT_TIMEOUT_MS: "500" });
    expect(choreDatabaseOptions(env)).toEqual({ url: "postgresql://db/directory", timeouts: { connectMs: 500, statementMs: 0, idleMs: 60_000 } });
  });

  it.each([
    [{ DIRECTORY_URL: "localhost:3000" }, /^bad environment: DIRECTORY_URL must be a URL starting http:\/\/ or https:\/\/$/],
    [{ DB_IDLE_TIMEOUT_MS: "forever" }, /DB_IDLE_TIMEOUT_MS must be a non-negative integer \(milliseconds\), got "forever"/],
    [{ DATABASE_URL: "./data" }, /DATABASE_URL must be a URL starting postgres:\/\/ or postgresql:\/\//],
  ])("refuses %o, naming the variable", (env, message) => {
    expect(() => parse(env)).toThrow(EnvironmentError);
    expect(() => parse(env)).toThrow(message);
  });
});
