import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { createDirectoryClient, directoryErrorOf } from "@directory/sdk";
import { startTestServer, type TestServer } from "./testing";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("the typed SDK against a live server", () => {
  it("searches and reads profiles with the same data REST serves", async () => {
    const client = createDirectoryClient({ baseUrl: server.url });
    const result = await client.search.searchBusinesses.query({ category: "dentists", city: "Mumbai", limit: 3 });
    expect(result.total).toBe(3);
    const rest = (await (await fetch(`${server.url}/api/assistant-plugin?category=dentists&city=Mumbai&limit=3`)).json()) as { businesses: unknown };
    expect(result.businesses).toEqual(rest.businesses);
    const first = result.businesses[0]!;
    const profile = await client.entities.getEntityProfile.query({ slug: first.slug });
    expect(profile.identity.name).toBe(first.name);
    expect(typeof profile.identity.createdAt).toBe("string");
  });

  it("surfaces the public error body and status (410 for a decommissioned business)", async () => {
    const [inactive] = await server.database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "inactive")).limit(1);
    const client = createDirectoryClient({ baseUrl: server.url });
    const error = await client.entities.getEntityProfile.query({ slug: inactive!.slug }).catch((e: unknown) => e);
    expect(directoryErrorOf(error)).toEqual({
      status: 410,
      error: expect.stringContaining("decommissioned"),
      code: "ENTITY_DECOMMISSIONED",
      reason: "decommissioned",
    });
  });

  it("sends the key as a bearer token", async () => {
    const client = createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });
    const keys = await client.apiKeys.list.query({ limit: 10 });
    expect(keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toContain(server.adminKey);
  });
});
