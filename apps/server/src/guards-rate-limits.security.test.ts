import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { rateLimitCounters } from "@directory/db";
import { getJson, type RateLimitedBody, type TrpcError } from "./testing";
import { leadCount, leadFor, LIMITS, mcpText, mcpTool, newAddress, server, slugs, trpcMutation, trpcQuery, useGuardsServer } from "./guards-fixtures";

/** Findings 1 and 2: leads have limits of their own, and the anonymous limits hold on every door. */

useGuardsServer();

describe("1. lead submission has limits of its own on every door", () => {
  it("limits one anonymous address over tRPC and MCP together", async () => {
    const address = newAddress();
    const before = await leadCount();
    expect((await trpcMutation("leads.submit", leadFor(slugs[0]!), { "x-forwarded-for": address })).status).toBe(200);
    const mcp = await mcpTool("submit_lead", leadFor(slugs[1]!), address);
    expect(mcp.body.result!.isError).toBeFalsy();
    const refused = await trpcMutation<TrpcError<RateLimitedBody>>("leads.submit", leadFor(slugs[2]!), { "x-forwarded-for": address });
    expect(refused.status).toBe(429);
    expect(refused.body.error.json.data.public).toMatchObject({ code: "RATE_LIMITED", policy: "lead-address-hourly", limit: LIMITS.leadsPerAddressPerHour });
    const refusedMcp = await mcpTool("submit_lead", leadFor(slugs[3]!), address);
    expect(refusedMcp.body.result!.isError).toBe(true);
    expect(mcpText(refusedMcp.body)).toMatch(/RATE_LIMITED/);
    expect(await leadCount()).toBe(before + 2);
  });

  it("limits one key, whatever addresses it comes from", async () => {
    const { key } = await createApiKey(server.database.db, { kind: "developer", label: "lead-limit" });
    const headers = (address: string) => ({ authorization: `Bearer ${key}`, "x-forwarded-for": address });
    expect((await trpcMutation("leads.submit", leadFor(slugs[4]!), headers(newAddress()))).status).toBe(200);
    expect((await trpcMutation("leads.submit", leadFor(slugs[5]!), headers(newAddress()))).status).toBe(200);
    const refused = await trpcMutation<TrpcError<RateLimitedBody>>("leads.submit", leadFor(slugs[6]!), headers(newAddress()));
    expect(refused.status).toBe(429);
    expect(refused.body.error.json.data.public.policy).toBe("lead-key-hourly");
  });

  it("limits the leads one business receives a day, from any number of callers", async () => {
    const target = slugs[7]!;
    for (let i = 0; i < LIMITS.leadsPerBusinessPerDay; i++) {
      expect((await trpcMutation("leads.submit", leadFor(target), { "x-forwarded-for": newAddress() })).status).toBe(200);
    }
    const refused = await trpcMutation<TrpcError<RateLimitedBody>>("leads.submit", leadFor(target), { "x-forwarded-for": newAddress() });
    expect(refused.status).toBe(429);
    expect(refused.body.error.json.data.public.policy).toBe("lead-business-daily");
  });

  it("refuses a batch of more than 10 calls whole (400 lead submissions, or just 11), writing nothing", async () => {
    const before = await leadCount();
    for (const calls of [400, 11]) {
      const body = Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), { json: leadFor(slugs[8]!) }]));
      const response = await fetch(`${server.url}/trpc/${Array(calls).fill("leads.submit").join(",")}?batch=1`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": newAddress() },
        body: JSON.stringify(body),
      });
      // 400 leads do not even fit the body limit (413); 11 small ones exceed the batch cap (400).
      expect(response.status).toBe(calls === 11 ? 400 : 413);
    }
    expect(await leadCount()).toBe(before);
  });
});

describe("2. the anonymous limits hold on every door", () => {
  it("once an address has used its daily v2 calls, tRPC twins, MCP tools and pages refuse it too", async () => {
    const address = newAddress();
    for (let i = 0; i < LIMITS.anonymousPerDay; i++) {
      const { status } = await getJson(server.url, `/api/v2/entity-profile?slug=${slugs[0]}`, { "x-forwarded-for": address });
      expect(status).toBe(200);
    }
    const doors = [
      await trpcQuery<TrpcError>("search.searchCategory", { category: "dentist", city: "Mumbai" }, address),
      await trpcQuery<TrpcError>("entities.compare", { slugA: slugs[0], slugB: slugs[1] }, address),
      await trpcQuery<TrpcError>("search.searchKeyword", { query: "dentist" }, address),
    ];
    for (const { status, body } of doors) {
      expect(status).toBe(429);
      expect(body.error.json.data.public).toMatchObject({ code: "RATE_LIMITED", policy: "anonymous-daily" });
    }
    for (const [tool, args] of [
      ["search_businesses", { category: "dentist", city: "Mumbai" }],
      ["search_by_keyword", { query: "dentist" }],
    ] as const) {
      const { body } = await mcpTool(tool, args, address);
      expect(body.result!.isError).toBe(true);
      expect(mcpText(body)).toMatch(/RATE_LIMITED/);
    }
    const page = await fetch(`${server.url}/business/${slugs[0]}`, { headers: { "x-forwarded-for": address } });
    expect(page.status).toBe(429);
  });

  it("the routes the spec leaves open have a per-minute limit per address, shared by REST and tRPC", async () => {
    const address = newAddress();
    const statuses = [
      (await getJson(server.url, "/api/assistant-plugin?category=dentist&city=Mumbai", { "x-forwarded-for": address })).status,
      (await getJson(server.url, `/business/${slugs[0]}/agent.json`, { "x-forwarded-for": address })).status,
      (await trpcQuery("entities.getAgentProfile", { slug: slugs[0] }, address)).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await getJson<RateLimitedBody>(server.url, "/api/assistant-plugin?category=dentist&city=Mumbai", { "x-forwarded-for": address });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", policy: "anonymous-minute", limit: LIMITS.openPerMinute });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });

  it("refuses a GET batch of 120 keyword searches before running any", async () => {
    const address = newAddress();
    const input = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [String(i), { json: { query: "plumber" } }]));
    const response = await fetch(
      `${server.url}/trpc/${Array(120).fill("search.searchKeyword").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
      {
        headers: { "x-forwarded-for": address },
      },
    );
    expect(response.status).toBe(400);
    // Nothing ran, so nothing was counted: the address still has its whole daily allowance.
    const [counter] = await server.database.db
      .select()
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.bucket, `anonymous-daily|ip:${address}`));
    expect(counter).toBeUndefined();
  });
});
