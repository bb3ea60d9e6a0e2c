import { request, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectoryClient } from "@directory/sdk";
import { readConfig, startServer } from "../index";
import { type McpAnswer, SMALL_TEST_WORLD, startTestServer, type TestServer } from "../testing";
import { mountMcp } from "@directory/mcp";
import { openSse, type OpenSse } from "./sse-fixtures";

let server: TestServer;

beforeAll(async () => {
  // One trusted proxy hop, so each SSE test client can stand for a different address.
  server = await startTestServer({ seed: SMALL_TEST_WORLD, trustProxyHops: 1 });
});
afterAll(async () => {
  await server?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "guard-test", version: "0" } },
});

/** A raw HTTP request: fetch may not set Host, and these tests are about exactly that header. T is the body the test expects. */
function send<T = unknown>(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const url = new URL(path, baseUrl);
  return new Promise<{ status: number; contentType: string; body: T }>((resolve, reject) => {
    const req = request(url, { method, headers: { accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        // An accepted SSE stream stays open: its first event is enough.
        if (res.headers["content-type"]?.startsWith("text/event-stream")) res.destroy();
      });
      const done = () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the assertions say so
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: parsed as T });
      };
      res.on("end", done);
      res.on("close", done);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const postInitialize = (baseUrl: string, headers: Record<string, string>) =>
  send<McpAnswer<{ serverInfo: { name: string } }>>(baseUrl, "POST", "/api/mcp", { "content-type": "application/json", ...headers }, INITIALIZE);

describe("MCP DNS rebinding protection (Host and Origin allow-list)", () => {
  it("refuses a foreign Host on every MCP route with a JSON-RPC 403", async () => {
    const port = new URL(server.url).port;
    for (const [method, path] of [
      ["POST", "/api/mcp"],
      ["GET", "/api/mcp/sse"],
      ["POST", "/api/mcp/messages?sessionId=x"],
    ] as const) {
      const response = await send(
        server.url,
        method,
        path,
        { host: `evil.example.com:${port}`, "content-type": "application/json" },
        method === "POST" ? INITIALIZE : undefined,
      );
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    }
  });

  it("refuses a foreign Origin even with a loopback Host, and an unparsable one", async () => {
    for (const origin of ["http://evil.example.com", "https://directory.test.evil.example", "null"]) {
      const response = await postInitialize(server.url, { origin });
      expect(response.status, origin).toBe(403);
      expect(response.body.error!.message).toMatch(/origin/i);
    }
  });

  it("serves the loopback names and the public base URL's host, with any port", async () => {
    const port = new URL(server.url).port;
    const cases: Record<string, string>[] = [
      {},
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { host: "127.0.0.1", origin: "http://127.0.0.1:6274" },
      { host: `[::1]:${port}` },
      { host: "directory.test", origin: "https://directory.test" },
      { host: "DIRECTORY.TEST:443" },
    ];
    for (const headers of cases) {
      const response = await postInitialize(server.url, headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.body.result!.serverInfo.name).toBe("business-directory");
    }
  });

  it("leaves the other doors alone: a foreign Host still reads REST", async () => {
    const response = await send(server.url, "GET", "/healthz", { host: "evil.example.com" });
    expect(response.status).toBe(200);
  });
});

describe("request bodies the app's JSON parser refuses", () => {
  const post = <T = unknown>(path: string, body: string, headers: Record<string, string> = {}) =>
    send<T>(server.url, "POST", path, { "content-type": "application/json", ...headers }, body);

  it("answers malformed JSON on every MCP POST route with a JSON-RPC parse error", async () => {
    for (const path of ["/api/mcp", "/api/mcp/messages?sessionId=x"]) {
      const response = await post(path, '{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(response.status, path).toBe(400);
      expect(response.contentType).toContain("application/json");
      expect(response.body).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: expect.stringMatching(/parse error/i) }, id: null });
    }
  });

  it("answers too deep and too large bodies as JSON-RPC invalid requests", async () => {
    const deep = await post("/api/mcp", `${"[".repeat(40)}${"]".repeat(40)}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/deeper/) }, id: null });
    const large = await post("/api/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(200_000) } }));
    expect(large.status).toBe(413);
    expect(large.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
  });

  it("checks Host before answering about the body", async () => {
    const response = await post<McpAnswer<unknown>>("/api/mcp", "{not json", { host: "evil.example.com" });
    expect(response.status).toBe(403);
    expect(response.body.error!.code).toBe(-32000);
  });
});

describe("ALLOWED_HOSTS", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "directory-allowed-hosts-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("extends the allow-list and sets the SSE caps from the environment through to the running server", async () => {
    const config = readConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DEMO_SEED: "off",
      LOG_LEVEL: "silent",
      PUBLIC_BASE_URL: "https://directory.example",
      ALLOWED_HOSTS: " mcp.example.net, Agents.Example.org ,",
      MCP_SSE_MAX_SESSIONS_PER_ADDRESS: "1",
    });
    expect(config.allowedHosts).toEqual(["mcp.example.net", "Agents.Example.org"]);
    expect(config.mcpSse).toEqual({ maxSseSessions: 100, maxSseSessionsPerClient: 1, sseSessionsReservedForKeys: 20, sseIdleTimeoutMs: 300_000 });
    const running = await startServer(config);
    const sessions: OpenSse[] = [];
    try {
      for (const host of ["mcp.example.net", "agents.example.org:8443", "directory.example", "localhost"]) {
        expect((await postInitialize(running.url, { host })).status, host).toBe(200);
      }
      expect((await postInitialize(running.url, { host: "evil.example.com" })).status).toBe(403);
      sessions.push(await openSse(running.url), await openSse(running.url));
      expect(sessions.map((session) => session.status)).toEqual([200, 429]);
    } finally {
      sessions.forEach((session) => session.close());
      await running.close();
    }
  });
});

const PING = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" });

async function postMessage(baseUrl: string, endpoint: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(endpoint, baseUrl), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: PING });
  return response.status;
}

describe("legacy SSE caps", () => {
  const opened: OpenSse[] = [];
  afterAll(() => opened.forEach((session) => session.close()));
  const open = async (baseUrl: string, headers: Record<string, string> = {}) => {
    const session = await openSse(baseUrl, headers);
    opened.push(session);
    return session;
  };

  it("holds at most 2 open sessions per client address (IPv6: per /64), refusing a third with 429 { error, code } and Retry-After", async () => {
    const mine = { "x-forwarded-for": "192.0.2.1" };
    const two = [await open(server.url, mine), await open(server.url, mine)];
    expect(two.map((session) => session.status)).toEqual([200, 200]);
    const refused = await openSse(server.url, mine);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringMatching(/already holds 2 open MCP SSE sessions.*POST \/api\/mcp/), code: "RATE_LIMITED" });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);

    expect((await open(server.url, { "x-forwarded-for": "192.0.2.2" })).status).toBe(200);
    for (let i = 1; i <= 2; i++) expect((await open(server.url, { "x-forwarded-for": `2001:db8:1:2::${i}` })).status).toBe(200);
    expect((await open(server.url, { "x-forwarded-for": "2001:db8:1:2:ffff::9" })).status).toBe(429);

    two[0]!.close();
    await two[0]!.ended;
    let reopened = 0;
    for (let attempt = 0; attempt < 50 && reopened !== 200; attempt++) {
      reopened = (await open(server.url, mine)).status;
      if (reopened !== 200) await new Promise((wait) => setTimeout(wait, 20));
    }
    expect(reopened).toBe(200);
  });

  it("leaves most of the 100 slots free when 20 addresses open all they may (the issue's 20 addresses held all 100)", async () => {
    const statuses: number[] = [];
    for (let address = 1; address <= 20; address++) {
      for (let attempt = 0; attempt < 6; attempt++) statuses.push((await open(server.url, { "x-forwarded-for": `198.51.100.${address}` })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(40);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // A newcomer still gets a session.
    expect((await open(server.url, { "x-forwarded-for": "203.0.113.50" })).status).toBe(200);
  });

  it("closes a session that posts nothing for the idle timeout, and frees its slot", async () => {
    const app = express();
    const idleMs = 1_000;
    mountMcp(app, {
      clientFor: () => createDirectoryClient({ baseUrl: server.url }),
      maxSseSessionsPerClient: 1,
      sseIdleTimeoutMs: idleMs,
    });
    const mcp = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    try {
      const address = mcp.address();
      const baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      const session = await open(baseUrl);
      expect(session.status).toBe(200);
      expect((await open(baseUrl)).status).toBe(429);

      // Messages keep it open past the first deadline.
      let ended = false;
      void session.ended.then(() => (ended = true));
      for (let i = 0; i < 3; i++) {
        await new Promise((wait) => setTimeout(wait, idleMs * 0.6));
        expect(await postMessage(baseUrl, session.endpoint!)).toBe(202);
      }
      expect(ended).toBe(false);

      // Then silence: the server ends the stream, forgets the session and frees the slot.
      await session.ended;
      expect(await postMessage(baseUrl, session.endpoint!)).toBe(404);
      expect((await open(baseUrl)).status).toBe(200);
    } finally {
      mcp.closeAllConnections();
      await new Promise<void>((resolve) => mcp.close(() => resolve()));
    }
  });
});
