import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedServerWait } from "./test-database-waits";

const serverUrl = process.env.TEST_DATABASE_URL;

// The bound guards the PostgreSQL pass's set-up; PGlite has no server whose sessions could block.
describe.skipIf(!serverUrl)("a test set-up's bounded wait on the server", () => {
  let holder: postgres.Sql;
  let waiter: postgres.Sql;
  let holderPid = 0;
  const lockId = 7_310_442_001;

  beforeAll(async () => {
    holder = postgres(serverUrl!, { max: 1 });
    waiter = postgres(serverUrl!, { max: 1 });
    const [session] = await holder<{ pid: number }[]>`select pg_backend_pid() as pid`;
    holderPid = session!.pid;
  });

  afterAll(async () => {
    await holder.end({ timeout: 5 });
    await waiter.end({ timeout: 0 });
  });

  it("returns what the work returns within the bound", async () => {
    const [row] = await boundedServerWait(serverUrl!, "a quick query", waiter<{ one: number }[]>`select 1 as one`, 5_000);
    expect(row?.one).toBe(1);
  });

  it("fails past the bound naming the session that holds the lock it waits for", async () => {
    await holder`select pg_advisory_lock(${lockId})`;
    try {
      const failure = await boundedServerWait(serverUrl!, "waiting for the test world", waiter`select pg_advisory_lock(${lockId})`, 800).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/^waiting for the test world: still waiting after 1 s\. The server's sessions then:/);
      expect(failure).toMatch(/\d+ of \d+ connections in use/);
      expect(failure).toContain(`blocked by ${holderPid}`);
      expect(failure).toMatch(new RegExp(`pid ${holderPid} db \\S+ idle \\d+ s holding 1 advisory lock`));
    } finally {
      await holder`select pg_advisory_unlock(${lockId})`;
    }
  });
});
