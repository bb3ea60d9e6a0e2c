import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "../testing";
import { openSse, type OpenSse } from "./sse-fixtures";

/**
 * Issue 38, finding 7: addresses are cheap, so the last legacy SSE slots are kept for callers
 * with a valid API key, checked by a procedure (keys.confirmKey) like every other key check.
 */
const CAPS = { maxSseSessions: 6, maxSseSessionsPerClient: 2, sseSessionsReservedForKeys: 2 };

let server: TestServer;
const opened: OpenSse[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD, trustProxyHops: 1, mcpSse: CAPS });
});
afterAll(async () => {
  for (const session of opened) session.close();
  await server?.close();
});

async function open(headers: Record<string, string>): Promise<OpenSse> {
  const session = await openSse(server.url, headers);
  opened.push(session);
  return session;
}

describe("legacy MCP SSE slots kept for API keys", () => {
  it("addresses alone fill only the open share; a valid key takes the reserve, a forged one does not", async () => {
    const statuses: number[] = [];
    for (let address = 1; address <= 3; address++) {
      for (let attempt = 0; attempt < 2; attempt++) statuses.push((await open({ "x-forwarded-for": `198.51.100.${address}` })).status);
    }
    // Four of six taken by two addresses; the third address finds the open share full.
    expect(statuses).toEqual([200, 200, 200, 200, 503, 503]);
    const anonymous = await open({ "x-forwarded-for": "198.51.100.9" });
    expect(anonymous.status).toBe(503);
    expect(anonymous.body).toEqual({ error: expect.stringMatching(/without an API key are all taken \(2 more are kept for keys\)/), code: "UNAVAILABLE" });
    expect(Number(anonymous.retryAfter)).toBeGreaterThan(0);

    const forged = await open({ "x-forwarded-for": "198.51.100.10", authorization: "Bearer dir_dev_forged0000000000000000000000" });
    expect(forged.status).toBe(503);
    const { key } = await createApiKey(server.database.db, { kind: "developer" });
    const keyed = { "x-forwarded-for": "198.51.100.11", authorization: `Bearer ${key}` };
    expect([(await open(keyed)).status, (await open(keyed)).status]).toEqual([200, 200]);

    // The house is full: even a key waits.
    const { key: another } = await createApiKey(server.database.db, { kind: "partner" });
    const full = await open({ "x-forwarded-for": "198.51.100.12", authorization: `Bearer ${another}` });
    expect(full.status).toBe(503);
    expect(full.body).toEqual({ error: expect.stringMatching(/All 6 MCP SSE sessions are open/), code: "UNAVAILABLE" });
  });
});
