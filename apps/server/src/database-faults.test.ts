import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "@directory/api";
import { createDatabase, migrate, type Database, type DatabaseTimeouts } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "@directory/api/testing";
import { blackHole, postgresProxy, refusedPort } from "./network-faults";
import { type ErrorBody, getJson, type McpAnswer, startTestServer, type TestServer, type ToolResult, type TrpcError } from "./testing";

/** Every fault must turn into a 503 this fast (the default timeouts are well inside it). */
const FAULT_BOUND_MS = 5_000;
const MCP_ACCEPT = "application/json, text/event-stream";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server over a database that may be down (so no admin key is made); both are closed after the test. */
async function serve(database: Database): Promise<TestServer> {
  cleanups.push(() => database.close());
  const server = await startTestServer({ database: { ...database, destroy: () => database.close() }, adminKey: false });
  cleanups.push(() => server.close());
  return server;
}

/** What each door answers: REST's error body, tRPC's envelope, or MCP's JSON-RPC answer (healthz answers like REST). */
type DoorBody = ErrorBody | TrpcError | McpAnswer<ToolResult>;

interface Answer {
  status: number;
  headers: Headers;
  body: DoorBody;
  ms: number;
}

async function timed(request: () => Promise<{ status: number; headers: Headers; body: DoorBody }>): Promise<Answer> {
  const startedAt = performance.now();
  const answer = await request();
  return { ...answer, ms: Math.round(performance.now() - startedAt) };
}

const CATEGORY_INPUT = { category: "dentist", limit: 1 };

/** One request per door; each returns the HTTP answer, so the same checks apply to all. */
const DOORS: Record<string, (url: string) => Promise<Answer>> = {
  "anonymous REST": (url) => timed(() => getJson<ErrorBody>(url, "/api/v2/businesses?category=dentist&city=Mumbai&limit=1")),
  "keyed REST": (url) => timed(() => getJson<ErrorBody>(url, "/api/v2/partner-feed?limit=1", { Authorization: `Bearer ${generateApiKey("partner")}` })),
  tRPC: (url) => timed(() => getJson<TrpcError>(url, `/trpc/search.searchCategory?input=${encodeURIComponent(JSON.stringify({ json: CATEGORY_INPUT }))}`)),
  "MCP tool call": (url) =>
    timed(async () => {
      const response = await fetch(`${url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: MCP_ACCEPT },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_businesses", arguments: CATEGORY_INPUT } }),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as McpAnswer<ToolResult> };
    }),
  healthz: (url) => timed(() => getJson<ErrorBody>(url, "/healthz")),
};

/** The 503 every door gives for a database fault; MCP gives it as a tool error the agent can read. */
function expectUnavailable(door: string, answer: Answer) {
  expect(answer.ms).toBeLessThan(FAULT_BOUND_MS);
  if (door === "MCP tool call") {
    expect(answer.status).toBe(200);
    const { result } = answer.body as McpAnswer<ToolResult>;
    expect(result!.isError).toBe(true);
    expect(result!.content[0]!.text).toMatch(/unavailable; retry in \d+ seconds \(UNAVAILABLE, HTTP 503\)/);
    return;
  }
  expect(answer.status).toBe(503);
  const body = door === "tRPC" ? (answer.body as TrpcError).error.json.data.public : (answer.body as ErrorBody);
  expect(body.code).toBe("UNAVAILABLE");
  expect(body.error).toMatch(/unavailable|unreachable/i);
  if (door !== "healthz") expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("a database that refuses connections", () => {
  let url: string;
  beforeAll(async () => {
    url = `postgres://postgres@127.0.0.1:${await refusedPort()}/directory`;
  });

  for (const [door, request] of Object.entries(DOORS)) {
    it(`${door}: 503 UNAVAILABLE within ${FAULT_BOUND_MS} ms`, async () => {
      const server = await serve(await createDatabase({ url }));
      expectUnavailable(door, await request(server.url));
    });
  }

  it("keeps answering 503 quickly while it stays down (new connections fail at once between attempts)", async () => {
    const server = await serve(await createDatabase({ url }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => DOORS["anonymous REST"]!(server.url)));
    for (const answer of answers) expectUnavailable("anonymous REST", answer);
  });
});

describe("a database host that accepts connections and never answers", () => {
  let hole: Awaited<ReturnType<typeof blackHole>>;
  beforeAll(async () => {
    hole = await blackHole();
  });
  afterAll(async () => {
    await hole?.close();
  });

  for (const [door, request] of Object.entries(DOORS)) {
    it(`${door}: 503 UNAVAILABLE within ${FAULT_BOUND_MS} ms`, async () => {
      const server = await serve(await createDatabase({ url: `postgres://postgres@127.0.0.1:${hole.port}/directory` }));
      expectUnavailable(door, await request(server.url));
    });
  }
});

describe("a closed embedded database", () => {
  it("answers 503 UNAVAILABLE, not 500", async () => {
    const database = await createDatabase({ memory: true });
    await database.close();
    const server = await serve({ ...database, close: async () => {} });
    for (const door of ["anonymous REST", "tRPC", "MCP tool call", "healthz"]) expectUnavailable(door, await DOORS[door]!(server.url));
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL behind a proxy that goes down and comes back (needs TEST_DATABASE_URL)", () => {
  let base: TestDatabase;
  let proxy: Awaited<ReturnType<typeof postgresProxy>>;
  let proxied: Database;
  let server: TestServer;
  // A short statement timeout keeps the silent-connection case well inside the bound on a busy machine.
  const timeouts: Partial<DatabaseTimeouts> = { statementMs: 1_500 };

  beforeAll(async () => {
    base = await createTestDatabase({ seed: SMALL_TEST_WORLD });
    proxy = await postgresProxy(new URL(base.url!));
    proxied = await createDatabase({ url: proxy.url, timeouts });
    server = await startTestServer({ database: { ...proxied, destroy: () => proxied.close() } });
  });
  afterAll(async () => {
    await server?.close();
    await proxied?.close();
    await proxy?.close();
    await base?.destroy();
  });

  async function untilServing(door: string): Promise<Answer> {
    const deadline = performance.now() + 10_000;
    for (;;) {
      const answer = await DOORS[door]!(server.url);
      if (answer.status === 200 || performance.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("serves, answers 503 within the bound while the database is down, and serves again once it is back, without a restart", async () => {
    for (const door of ["anonymous REST", "tRPC", "healthz"]) expect((await DOORS[door]!(server.url)).status).toBe(200);
    await proxy.stop();
    for (const door of Object.keys(DOORS)) expectUnavailable(door, await DOORS[door]!(server.url));
    await proxy.start();
    for (const door of ["anonymous REST", "tRPC", "healthz"]) expect((await untilServing(door)).status).toBe(200);
  });

  it("notices connections that go silent mid-session (a query sent, no answer) and recovers when they speak again", async () => {
    expect((await untilServing("anonymous REST")).status).toBe(200);
    proxy.silence(true);
    try {
      expectUnavailable("anonymous REST", await DOORS["anonymous REST"]!(server.url));
      expectUnavailable("tRPC", await DOORS.tRPC!(server.url));
    } finally {
      proxy.silence(false);
    }
    expect((await untilServing("anonymous REST")).status).toBe(200);
  });
});

describe("/healthz over the embedded database", () => {
  let dataRoot: string;
  beforeAll(() => {
    dataRoot = mkdtempSync(join(tmpdir(), "directory-healthz-"));
  });
  afterAll(() => {
    rmSync(dataRoot, { recursive: true, force: true });
  });

  it("answers 503 once the data folder is removed, although PGlite still answers from memory", async () => {
    const dataDir = join(dataRoot, "pglite");
    const server = await serve(await createDatabase({ dataDir }));
    expect((await getJson(server.url, "/healthz")).status).toBe(200);
    rmSync(dataDir, { recursive: true, force: true });
    const answer = await DOORS.healthz!(server.url);
    expectUnavailable("healthz", answer);
  });

  it("refuses a write with 503 once the data folder is removed (PGlite would acknowledge it and lose it)", async () => {
    const dataDir = join(dataRoot, "pglite-writes");
    const database = await createDatabase({ dataDir });
    cleanups.push(() => database.close());
    await migrate(database);
    const server = await startTestServer({ database: { ...database, destroy: async () => {} } });
    cleanups.push(() => server.close());
    const createKey = () =>
      timed(async () => {
        const response = await fetch(`${server.url}/trpc/apiKeys.create`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
          body: JSON.stringify({ json: { kind: "partner", label: "written before the folder went" } }),
        });
        // Its success is a TrpcResult; only the failure's body is read.
        return { status: response.status, headers: response.headers, body: (await response.json()) as TrpcError };
      });
    expect((await createKey()).status).toBe(200);
    rmSync(dataDir, { recursive: true, force: true });
    expectUnavailable("tRPC", await createKey());
    expectUnavailable("healthz", await DOORS.healthz!(server.url));
  });
});
