import { describe, expect, it } from "vitest";
import { createDirectoryClient, DirectoryError, directoryErrorOf, exportPartnerFeed, rateLimitOf } from "./index";

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/** A fetch that answers tRPC batch calls from a script of replies, counting the calls. */
function scriptedFetch(replies: Reply[]) {
  const calls: string[] = [];
  const fetchFn: typeof fetch = async (input) => {
    calls.push(input instanceof Request ? input.url : input.toString());
    const reply = replies[Math.min(calls.length - 1, replies.length - 1)]!;
    return new Response(JSON.stringify([reply.body]), { status: reply.status, headers: { "content-type": "application/json", ...reply.headers } });
  };
  return { calls, fetch: fetchFn };
}

const ok = (json: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body: { result: { data: { json } } }, headers });
const failure = (status: number, body: Record<string, unknown>, headers?: Record<string, string>): Reply => ({
  status,
  headers,
  body: { error: { json: { message: body.error, code: -32029, data: { code: "TOO_MANY_REQUESTS", httpStatus: status, public: body } } } },
});
const rateLimited = (retryAfter: string) =>
  failure(
    429,
    { error: "quota used up", code: "RATE_LIMITED", limit: 60, policy: "anonymous-minute", resetAt: "2030-01-01T00:00:00.000Z" },
    { "retry-after": retryAfter },
  );
const retry = { baseDelayMs: 1 };

describe("the SDK client", () => {
  it("retries a query refused with 429 after Retry-After, and reports the quota", async () => {
    const server = scriptedFetch([
      rateLimited("0"),
      ok({ total: 0, businesses: [] }, { RateLimit: '"anonymous-minute";r=41;t=30', "RateLimit-Policy": '"anonymous-minute";q=60;w=60' }),
    ]);
    const client = createDirectoryClient({ baseUrl: "http://directory.test", fetch: server.fetch, retry });
    const result = await client.search.searchBusinesses.query({ category: "dentists", city: "Mumbai" });
    expect(result.total).toBe(0);
    expect(server.calls).toHaveLength(2);
    expect(rateLimitOf(client)).toMatchObject({ policy: "anonymous-minute", limit: 60, remaining: 41 });
  });

  it("throws a typed DirectoryError once the retries are used up", async () => {
    const server = scriptedFetch([rateLimited("0")]);
    const client = createDirectoryClient({ baseUrl: "http://directory.test", fetch: server.fetch, retry: { retries: 2, baseDelayMs: 1 } });
    const error = await client.search.searchBusinesses.query({ category: "dentists", city: "Mumbai" }).catch((e: unknown) => e);
    expect(server.calls).toHaveLength(3);
    expect(error).toBeInstanceOf(DirectoryError);
    const typed = error as DirectoryError;
    expect([typed.status, typed.code, typed.limit, typed.retryAfterSeconds]).toEqual([429, "RATE_LIMITED", 60, 0]);
    expect(typed.resetAt?.toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(directoryErrorOf(error)).toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("never retries a mutation without an idempotency key, and retries one with a key", async () => {
    const plain = scriptedFetch([failure(503, { error: "database unavailable", code: "UNAVAILABLE" }, { "retry-after": "0" })]);
    const client = createDirectoryClient({ baseUrl: "http://directory.test", fetch: plain.fetch, retry });
    await expect(client.apiKeys.revoke.mutate({ id: "key" })).rejects.toMatchObject({ status: 503, code: "UNAVAILABLE" });
    expect(plain.calls).toHaveLength(1);

    const keyed = scriptedFetch([failure(503, { error: "database unavailable", code: "UNAVAILABLE" }, { "retry-after": "0" }), ok({ leadId: "l1" })]);
    const leads = createDirectoryClient({ baseUrl: "http://directory.test", fetch: keyed.fetch, retry });
    const consent = { userAgreedToBeContacted: true as const, statementShownToUser: "ok", consentedAt: "2030-01-01T00:00:00.000Z" };
    await leads.leads.submit.mutate({ slug: "s", contactName: "A", message: "Hello", idempotencyKey: "k-1", consent });
    expect(keyed.calls).toHaveLength(2);
  });

  it("does not retry when turned off, nor when Retry-After is longer than maxDelayMs", async () => {
    const off = scriptedFetch([rateLimited("0")]);
    await expect(
      createDirectoryClient({ baseUrl: "http://d.test", fetch: off.fetch, retry: false }).search.searchBusinesses.query({ category: "a", city: "b" }),
    ).rejects.toBeInstanceOf(DirectoryError);
    expect(off.calls).toHaveLength(1);

    const long = scriptedFetch([rateLimited("3600")]);
    await expect(
      createDirectoryClient({ baseUrl: "http://d.test", fetch: long.fetch }).search.searchBusinesses.query({ category: "a", city: "b" }),
    ).rejects.toMatchObject({ retryAfterSeconds: 3600 });
    expect(long.calls).toHaveLength(1);
  });

  // A reverse proxy or load balancer in front of the service answers with its own page, not a tRPC body.
  it.each([
    [429, "RATE_LIMITED", "text/html", "<html><body><h1>Slow down</h1></body></html>"],
    [429, "RATE_LIMITED", "application/json", '{"message":"API rate limit exceeded"}'],
    [503, "UNAVAILABLE", "text/html", "<html><body><h1>Service Temporarily Unavailable</h1></body></html>"],
    [502, "UNAVAILABLE", "text/plain", "Bad Gateway"],
  ] as const)("maps a proxy's own %i to %s (a %s body, not tRPC's), with its Retry-After, and retries it", async (status, code, type, text) => {
    const page = () => new Response(text, { status, headers: { "content-type": type, "retry-after": "0" } });
    const calls: string[] = [];
    const client = createDirectoryClient({
      baseUrl: "http://d.test",
      retry: { retries: 1, baseDelayMs: 1 },
      fetch: async (input) => {
        calls.push(input instanceof Request ? input.url : input.toString());
        return page();
      },
    });
    const error = await client.search.searchBusinesses.query({ category: "a", city: "b" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectoryError);
    expect(error).toMatchObject({ status, code, retryAfterSeconds: 0, body: null });
    expect(calls).toHaveLength(status === 502 ? 1 : 2);

    const exported = exportPartnerFeed({ baseUrl: "http://d.test", apiKey: "bdk_partner_x", fetch: async () => page() });
    await expect(exported[Symbol.asyncIterator]().next()).rejects.toMatchObject({ status, code });
  });

  it("reports a failed connection as NETWORK_ERROR", async () => {
    const client = createDirectoryClient({ baseUrl: "http://d.test", retry: false, fetch: async () => Promise.reject(new TypeError("fetch failed")) });
    await expect(client.search.searchBusinesses.query({ category: "a", city: "b" })).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
  });
});
