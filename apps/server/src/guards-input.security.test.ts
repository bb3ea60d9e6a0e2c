import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteExpiredRateLimitWindows } from "@directory/api";
import { leadConsents, leads, rateLimitCounters } from "@directory/db";
import type { TGetAgentProfileOutput, TSubmitLeadOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, type McpAnswer, type TrpcError, type TrpcResult } from "./testing";
import {
  consent,
  country,
  leadCount,
  leadFor,
  logLines,
  mcpText,
  mcpTool,
  newAddress,
  server,
  slugs,
  trpcMutation,
  trpcQuery,
  useGuardsServer,
} from "./guards-fixtures";

/** Findings 3, 4, 5 and 10: deep JSON, control characters, personal data in the log, consent, and smaller findings. */

useGuardsServer();

describe("3. deep JSON is refused with a 400 before any parser recurses", () => {
  it("on a tRPC mutation body, a tRPC GET input and an MCP request", async () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    const mutation = await fetch(`${server.url}/trpc/leads.submit`, { method: "POST", headers: { "content-type": "application/json" }, body: deep });
    expect(mutation.status).toBe(400);
    expect(((await mutation.json()) as TrpcError).error.json.data.public.code).toBe("INVALID_INPUT");

    const query = await fetch(`${server.url}/trpc/search.searchKeyword?input=${encodeURIComponent("[".repeat(40) + "]".repeat(40))}`);
    expect(query.status).toBe(400);
    expect(((await query.json()) as TrpcError).error.json.data.public.code).toBe("INVALID_INPUT");

    const mcp = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: deep,
    });
    expect(mcp.status).toBe(400);
    expect(((await mcp.json()) as McpAnswer<unknown>).error).toBeDefined();
  });

  it("an input nested past the gate's depth is a 400 naming the parameter", async () => {
    let nested: unknown = "dentist";
    for (let i = 0; i < 12; i++) nested = [nested];
    const { status, body } = await trpcQuery<TrpcError>("search.searchKeyword", { query: nested }, newAddress());
    expect(status).toBe(400);
    expect(body.error.json.data.public.error).toMatch(/query/);
  });
});

describe("4. control characters are 400s naming the parameter, and personal data never reaches the log", () => {
  it("refuses NUL, other controls and lone surrogates on REST, tRPC, MCP and pages", async () => {
    const address = newAddress();
    const rest = await getJson<ErrorBody>(server.url, "/api/v2/entity-profile?slug=a%00b", { "x-forwarded-for": address });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: "INVALID_INPUT" });
    expect(rest.body.error).toMatch(/slug.*U\+0000/);

    const plugin = await getJson<ErrorBody>(server.url, "/api/assistant-plugin?category=den%01tist&city=Mumbai", { "x-forwarded-for": address });
    expect(plugin.status).toBe(400);
    expect(plugin.body.error).toMatch(/category/);

    const surrogate = await getJson(server.url, "/api/v2/businesses?category=dentist&city=%ED%A0%80", { "x-forwarded-for": address });
    expect(surrogate.status).toBeGreaterThanOrEqual(400);
    expect(surrogate.status).toBeLessThan(500);

    const trpc = await trpcQuery<TrpcError>("entities.getEntityProfile", { slug: "a\u0000b" }, address);
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.json.data.public.error).toMatch(/slug/);
    const lone = await trpcQuery<TrpcError>("search.searchKeyword", { query: "plumb\ud800er" }, address);
    expect(lone.status).toBe(400);
    expect(lone.body.error.json.data.public.error).toMatch(/query.*surrogate/);

    const mcp = await mcpTool("get_business_profile", { slug: "a\u0000b" }, address);
    expect(mcp.body.result!.isError).toBe(true);
    expect(mcpText(mcp.body)).toMatch(/slug/);

    const page = await fetch(`${server.url}/business/a%00b`, { headers: { "x-forwarded-for": address } });
    expect(page.status).toBe(400);
  });

  it("a lead whose write fails logs the failure without the lead's name, email, phone, message or consent", async () => {
    const secret = {
      contactName: "Zebulon Quarryman",
      contactEmail: "zebulon.q@private.example",
      contactPhone: "+44 20 7946 0958",
      message: "my secret enquiry 7781",
    };
    const statement = "I agree that Quarryman's dentist may phone me back today.";
    logLines.length = 0;
    await server.database.db.execute(sql`alter table lead_consents rename to lead_consents_offline`);
    try {
      const { status } = await trpcMutation(
        "leads.submit",
        leadFor(slugs[9]!, { ...secret, consent: { userAgreedToBeContacted: true, statementShownToUser: statement } }),
        { "x-forwarded-for": newAddress() },
      );
      expect(status).toBeGreaterThanOrEqual(500);
    } finally {
      await server.database.db.execute(sql`alter table lead_consents_offline rename to lead_consents`);
    }
    const log = logLines.join("");
    expect(log).toMatch(/Failed query/);
    // The phone is looked for whole (spaced and compact): a bare "7946" also turns up inside request ids.
    for (const value of [secret.contactName, "zebulon.q", "7946 0958", "+442079460958", secret.message, "Quarryman"]) expect(log).not.toContain(value);
  });
});

describe("5. consent means something", () => {
  /** Submits a lead over tRPC; T is the answer the test expects. */
  const submit = <T = unknown>(input: Record<string, unknown>, address = newAddress()) =>
    trpcMutation<T>("leads.submit", input, { "x-forwarded-for": address });

  it("refuses a statement of invisible characters, a consent time far off, and a phone that is no phone", async () => {
    const before = await leadCount();
    const invisible = "\u200b\u200c\u200d\u2060\u202e\u{e0041}\u{e0042}".repeat(10) + "ok";
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ consent: { userAgreedToBeContacted: true, statementShownToUser: invisible } }, /statementShownToUser/],
      [{ consent: { ...consent(), consentedAt: "2999-01-01T00:00:00Z" } }, /consentedAt/],
      [{ consent: { ...consent(), consentedAt: "1900-01-01T00:00:00Z" } }, /consentedAt/],
      [{ contactPhone: "abcde", contactEmail: undefined }, /contactPhone/],
      [{ contactPhone: "12345", contactEmail: undefined }, /contactPhone/],
    ];
    for (const [overrides, parameter] of cases) {
      const { status, body } = await submit<TrpcError>(leadFor(slugs[12]!, overrides));
      expect(status).toBe(400);
      expect(body.error.json.data.public.error).toMatch(parameter);
    }
    expect(await leadCount()).toBe(before);
  });

  it("stores phones as E.164 (national numbers read in the business's country) and emails normalised", async () => {
    const slug = slugs[11]!;
    const international = await submit<TrpcResult<TSubmitLeadOutput>>(
      leadFor(slug, { contactPhone: "+44 20 7946 0958", contactEmail: "  Asha.Rao@Example.COM " }),
    );
    expect(international.status).toBe(200);
    const [stored] = await server.database.db.select().from(leads).where(eq(leads.id, international.body.result.data.json.leadId));
    expect(stored).toMatchObject({ contactPhone: "+442079460958", contactEmail: "asha.rao@example.com" });
    const [consentRow] = await server.database.db.select().from(leadConsents).where(eq(leadConsents.leadId, stored!.id));
    expect(Math.abs(consentRow!.consentedAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(country.get(slug)).toMatch(/^[A-Z]{2}$/);
  });

  it("accepts a consent given an hour ago", async () => {
    const consentedAt = new Date(Date.now() - 3_600_000).toISOString();
    const { status } = await submit(leadFor(slugs[13]!, { consent: { ...consent(), consentedAt } }));
    expect(status).toBe(200);
  });

  it("scopes idempotency keys to their caller: another caller's key is no oracle", async () => {
    const first = newAddress();
    const input = leadFor(slugs[14]!, { idempotencyKey: "shared-key-0001" });
    const original = await submit<TrpcResult<TSubmitLeadOutput>>(input, first);
    expect(original.status).toBe(200);
    const sameCallerRetry = await submit<TrpcResult<TSubmitLeadOutput>>(input, first);
    expect(sameCallerRetry.body.result.data.json.leadId).toBe(original.body.result.data.json.leadId);

    const stranger = await submit<TrpcResult<TSubmitLeadOutput>>(input, newAddress());
    expect(stranger.status).toBe(200);
    expect(stranger.body.result.data.json.leadId).not.toBe(original.body.result.data.json.leadId);
    const strangerOtherContent = await submit({ ...input, message: "something else entirely" }, newAddress());
    expect(strangerOtherContent.status).toBe(200);
  });
});

describe("10. smaller findings", () => {
  it("decodes escaped path parameters, so agent.json answers like the page", async () => {
    const slug = slugs[0]!;
    const escaped = slug.replace("-", "%2D");
    const plain = await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`, { "x-forwarded-for": newAddress() });
    const decoded = await getJson<TGetAgentProfileOutput>(server.url, `/business/${escaped}/agent.json`, { "x-forwarded-for": newAddress() });
    expect(decoded.status).toBe(200);
    expect(decoded.body).toEqual(plain.body);
  });

  it("answers a URL over the header limit with a JSON 431", async () => {
    const response = await fetch(`${server.url}/api/assistant-plugin?category=${"x".repeat(20_000)}&city=Mumbai`);
    expect(response.status).toBe(431);
    expect(await response.json()).toMatchObject({ code: "HEADERS_TOO_LARGE" });
  });

  it("deletes closed rate-limit windows and keeps open ones", async () => {
    const past = new Date(Date.now() - 3_600_000);
    await server.database.db.insert(rateLimitCounters).values([
      { bucket: "test|closed", windowStart: new Date(past.getTime() - 60_000), windowEnd: past, hits: 1 },
      { bucket: "test|open", windowStart: past, windowEnd: new Date(Date.now() + 3_600_000), hits: 1 },
    ]);
    expect(await deleteExpiredRateLimitWindows(server.database.db)).toBeGreaterThanOrEqual(1);
    const left = await server.database.db
      .select({ bucket: rateLimitCounters.bucket })
      .from(rateLimitCounters)
      .where(sql`bucket like 'test|%'`);
    expect(left.map((row) => row.bucket)).toEqual(["test|open"]);
  });
});
