import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectoryClient, directoryErrorOf } from "@directory/sdk";
import { startTestServer, type TestServer } from "./testing";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("GET /api/v2/knowledge-graph over REST, and the same procedure through the SDK", () => {
  it("serves the same graph on both doors, with the v2 envelope and no internal score", async () => {
    const client = createDirectoryClient({ baseUrl: server.url });
    const viaSdk = await client.graph.getKnowledgeGraph.query({ type: "top_pairs" });
    const response = await fetch(`${server.url}/api/v2/knowledge-graph?type=top_pairs`);
    expect(response.status).toBe(200);
    const viaRest = await response.json();
    expect(viaRest).toEqual(viaSdk);
    expect(viaRest).toMatchObject({ apiVersion: "2.1-phase0", type: "top_pairs", total: expect.any(Number) });
    const slug = (viaRest as { pairs: { businesses: { slug: string }[] }[] }).pairs[0]!.businesses[0]!.slug;
    const network = await (await fetch(`${server.url}/api/v2/knowledge-graph?type=network&businessId=${slug}`)).json();
    expect(network).toMatchObject({ type: "network", business: { slug } });
    for (const body of [viaRest, network]) expect(JSON.stringify(body)).not.toMatch(/visibilityScore|geoScore/);
  });

  it("answers 400 naming the missing parameter, on REST and through the SDK", async () => {
    const response = await fetch(`${server.url}/api/v2/knowledge-graph?type=complementary&city=Mumbai`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "MISSING_PARAMETER", error: expect.stringMatching(/category/) });
    const client = createDirectoryClient({ baseUrl: server.url });
    const error = await client.graph.getKnowledgeGraph.query({ type: "network" }).catch((e: unknown) => e);
    expect(directoryErrorOf(error)).toMatchObject({ status: 400, code: "MISSING_PARAMETER" });
  });
});
