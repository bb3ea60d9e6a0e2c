import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig, startServer } from "@directory/server";
import { startTestServer, type JsonBody, type TestServer } from "@directory/server/testing";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: { businesses: 20 } });
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

/** A raw HTTP request: fetch may not set Host, and these tests are about exactly that header. */
function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const url = new URL(path, baseUrl);
  return new Promise<{ status: number; contentType: string; body: JsonBody }>((resolve, reject) => {
    const req = request(url, { method, headers: { accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        // An accepted SSE stream stays open: its first event is enough.
        if (res.headers["content-type"]?.startsWith("text/event-stream")) res.destroy();
      });
      const done = () => {
        let parsed: JsonBody = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the assertions say so
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: parsed });
      };
      res.on("end", done);
      res.on("close", done);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const postInitialize = (baseUrl: string, headers: Record<string, string>) =>
  send(baseUrl, "POST", "/api/mcp", { "content-type": "application/json", ...headers }, INITIALIZE);

describe("MCP DNS rebinding protection (Host and Origin allow-list)", () => {
  it("refuses a foreign Host on every MCP route with a JSON-RPC 403", async () => {
    const port = new URL(server.url).port;
    for (const [method, path] of [
      ["POST", "/api/mcp"],
      ["GET", "/api/mcp/sse"],
      ["POST", "/api/mcp/messages?sessionId=x"],
    ] as const) {
      const response = await send(server.url, method, path, { host: `evil.example.com:${port}`, "content-type": "application/json" }, method === "POST" ? INITIALIZE : undefined);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    }
  });

  it("refuses a foreign Origin even with a loopback Host, and an unparsable one", async () => {
    for (const origin of ["http://evil.example.com", "https://directory.test.evil.example", "null"]) {
      const response = await postInitialize(server.url, { origin });
      expect(response.status, origin).toBe(403);
      expect(response.body.error.message).toMatch(/origin/i);
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
      expect(response.body.result.serverInfo.name).toBe("business-directory");
    }
  });

  it("leaves the other doors alone: a foreign Host still reads REST", async () => {
    const response = await send(server.url, "GET", "/healthz", { host: "evil.example.com" });
    expect(response.status).toBe(200);
  });
});

describe("ALLOWED_HOSTS", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "directory-allowed-hosts-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("extends the allow-list from the environment through to the running server", async () => {
    const config = readConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DEMO_SEED: "off",
      LOG_LEVEL: "silent",
      PUBLIC_BASE_URL: "https://directory.example",
      ALLOWED_HOSTS: " mcp.example.net, Agents.Example.org ,",
    });
    expect(config.allowedHosts).toEqual(["mcp.example.net", "Agents.Example.org"]);
    const running = await startServer(config);
    try {
      for (const host of ["mcp.example.net", "agents.example.org:8443", "directory.example", "localhost"]) {
        expect((await postInitialize(running.url, { host })).status, host).toBe(200);
      }
      expect((await postInitialize(running.url, { host: "evil.example.com" })).status).toBe(403);
    } finally {
      await running.close();
    }
  });
});
