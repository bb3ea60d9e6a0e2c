import { databaseOptionsOf, EnvironmentError, parseEnvironment } from "@directory/db";
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

  it("behind a transaction pooler, serves through DATABASE_URL and does chores on DATABASE_DIRECT_URL, the primary itself", () => {
    const env = parse({
      DATABASE_URL: "postgresql://pgbouncer:6432/directory",
      DATABASE_POOLER: "transaction",
      DATABASE_DIRECT_URL: "postgresql://db/directory",
    });
    expect(databaseOptionsOf(env)).toMatchObject({
      url: "postgresql://pgbouncer:6432/directory",
      transactionPooler: { directUrl: "postgresql://db/directory" },
    });
    expect(choreDatabaseOptions(env)).toEqual({ url: "postgresql://db/directory", timeouts: { connectMs: 2_000, statementMs: 0, idleMs: 60_000 } });
  });

  it.each([
    [
      { DATABASE_URL: "postgresql://pgbouncer:6432/directory", DATABASE_POOLER: "transaction" },
      /DATABASE_POOLER=transaction needs DATABASE_URL \(the pooler\) and DATABASE_DIRECT_URL/,
    ],
    [{ DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: "postgresql://db/directory" }, /DATABASE_POOLER=transaction needs DATABASE_URL/],
    [
      { DATABASE_URL: "postgresql://db/directory", DATABASE_DIRECT_URL: "postgresql://db/directory" },
      /DATABASE_DIRECT_URL is read only with DATABASE_POOLER=transaction/,
    ],
  ])("refuses an incomplete pooler set %o", (env, message) => {
    expect(() => choreDatabaseOptions(parse(env))).toThrow(EnvironmentError);
    expect(() => choreDatabaseOptions(parse(env))).toThrow(message);
  });

  it.each([
    [{ DATABASE_POOLER: "session" }, /DATABASE_POOLER must be one of none, transaction, got "session"/],
    [{ DIRECTORY_URL: "localhost:3000" }, /^bad environment: DIRECTORY_URL must be a URL starting http:\/\/ or https:\/\/$/],
    [{ DB_IDLE_TIMEOUT_MS: "forever" }, /DB_IDLE_TIMEOUT_MS must be a non-negative integer \(milliseconds\), got "forever"/],
    [{ DATABASE_URL: "./data" }, /DATABASE_URL must be a URL starting postgres:\/\/ or postgresql:\/\//],
  ])("refuses %o, naming the variable", (env, message) => {
    expect(() => parse(env)).toThrow(EnvironmentError);
    expect(() => parse(env)).toThrow(message);
  });
});
