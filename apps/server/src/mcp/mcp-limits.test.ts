import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { businesses } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "../testing";

let server: TestServer;
let slug: string;
const clients: Client[] = [];

beforeAll(async () => {
  // One trusted proxy hop, so each test client can stand for a different address.
  server = await startTestServer({ seed: SMALL_TEST_WORLD, trustProxyHops: 1, rateLimits: { anonymousPerDay: 2, keyedPerMonth: 100 } });
  const [row] = await server.database.db.select({ slug: businesses.slug }).from(businesses).limit(1);
  slug = row!.slug;
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.close();
});

async function clientFrom(address: string) {
  const client = new Client({ name: "limits-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { "x-forwarded-for": address } } }));
  clients.push(client);
  return client;
}

async function profile(client: Client) {
  return client.callTool({ name: "get_business_profile", arguments: { slug } });
}

describe("MCP calls count against the real caller's limits", () => {
  it("limits each anonymous client address on its own, not every MCP caller together", async () => {
    const first = await clientFrom("192.0.2.10");
    const second = await clientFrom("192.0.2.20");
    expect((await profile(first)).isError).toBeFalsy();
    expect((await profile(first)).isError).toBeFalsy();
    const refused = await profile(first);
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/limit/i);
    expect((await profile(second)).isError).toBeFalsy();
  });
});
