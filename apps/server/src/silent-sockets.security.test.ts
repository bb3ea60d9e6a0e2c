import { Agent, request, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "./config";
import { serverUnderTest } from "./testing";

const { listenHttp } = serverUnderTest.modules;

/**
 * Short deadlines so the test waits a second or two, not the production defaults. The keep-alive
 * one is 2 s: Node announces it in whole seconds and its client keeps a socket one second less.
 */
const TIMEOUTS = { headersMs: 400, requestMs: 600, keepAliveMs: 2_000, silentMs: 1_500 };
/** A streamed response quieter than every deadline above, as the legacy MCP SSE stream is between events. */
const QUIET_GAP_MS = 2_000;

let server: Server;
let port = 0;

beforeAll(async () => {
  server = await listenHttp(
    (req, res) => {
      if (req.url !== "/stream") return void res.end("ok");
      res.write("first,");
      setTimeout(() => res.end("last"), QUIET_GAP_MS);
    },
    { port: 0, host: "127.0.0.1" },
    TIMEOUTS,
  );
  const address = server.address();
  if (typeof address === "object" && address) port = address.port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A raw connection that keeps its own half open, so only the server can end the connection. */
function openRaw(): Promise<{ socket: Socket; received: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const ended = new Promise<void>((done) => {
      socket.once("end", done);
      socket.once("close", done);
    });
    socket.once("error", reject);
    socket.once("connect", () => resolve({ socket, received: () => text, ended }));
  });
}

async function serverConnections(): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

function get(agent: Agent, path: string): Promise<{ body: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ body, reusedSocket: req.reusedSocket }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("connections that send nothing or too little", () => {
  it("are closed by the server within a few seconds, silent ones and half request lines alike", async () => {
    const silent = await Promise.all(Array.from({ length: 50 }, openRaw));
    const halfLines = await Promise.all(Array.from({ length: 20 }, openRaw));
    for (const { socket } of halfLines) socket.write("GET /never-finished HTTP/1.1\r\nHost: 127.0");
    await expect.poll(serverConnections).toBe(70);

    const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error("connections still open after 4 s")), 4_000));
    await Promise.race([Promise.all([...silent, ...halfLines].map(({ ended }) => ended)), deadline]);
    // The server released its side too: none of the 70 descriptors is held.
    await expect.poll(serverConnections, { timeout: 2_000 }).toBe(0);
    for (const { received } of halfLines) expect(received()).toMatch(/^HTTP\/1\.1 408 .*"code":"REQUEST_TIMEOUT"/s);
    for (const { socket } of [...silent, ...halfLines]) socket.destroy();
  });

  it("leave a keep-alive client working, and a quiet streamed response is not cut", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(agent, "/")).toEqual({ body: "ok", reusedSocket: false });
      // The agent takes the socket back once the response is over, a moment after its body ended.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await get(agent, "/")).toEqual({ body: "ok", reusedSocket: true });
      expect((await get(agent, "/stream")).body).toBe("first,last");
      // Idle after its last response, the kept-alive connection is closed by the server too.
      await expect.poll(serverConnections, { timeout: 5_000 }).toBe(0);
    } finally {
      agent.destroy();
    }
  });
});

describe("connection deadlines in the configuration", () => {
  it("are bounded by default and read from the environment", () => {
    expect(readConfig({}).connectionTimeouts).toEqual({ headersMs: 15_000, requestMs: 30_000, keepAliveMs: 5_000, silentMs: 10_000 });
    const env = { HTTP_HEADERS_TIMEOUT_MS: "2000", HTTP_REQUEST_TIMEOUT_MS: "4000", HTTP_KEEP_ALIVE_TIMEOUT_MS: "65000", HTTP_SILENT_TIMEOUT_MS: "3000" };
    expect(readConfig(env).connectionTimeouts).toEqual({ headersMs: 2000, requestMs: 4000, keepAliveMs: 65_000, silentMs: 3000 });
    expect(() => readConfig({ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "4000" })).toThrow(/HTTP_HEADERS_TIMEOUT_MS \(5000\) must not exceed/);
  });
});
