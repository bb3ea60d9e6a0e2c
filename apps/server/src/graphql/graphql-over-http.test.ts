import { describe, expect, it } from "vitest";
import { auditServer, createClient, NetworkError } from "graphql-http";
import { GRAPHQL_PATH } from "./index";
import { freshAddress, server, useGraphqlServer } from "./graphql-fixtures";

/**
 * The GraphQL over HTTP spec (graphql-http's audit of it), a strict client, and docs/graphql.md's
 * promise that every error is JSON: the refusals graphql-http makes before any query runs (406,
 * 415, 405) carry { error, code } like every other door.
 */

useGraphqlServer();

const url = () => `${server.url}${GRAPHQL_PATH}`;
const QUERY_WITH_VARIABLE = 'query ($limit: Int!) { lookupBusinesses(category: "dentist", city: "Mumbai", limit: $limit) { total } }';

async function post(body: unknown, headers: Record<string, string>) {
  const response = await fetch(url(), {
    method: "POST",
    headers: { "content-type": "application/json", ...freshAddress(), ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type") ?? "", text };
}

describe("GraphQL over HTTP", () => {
  it("passes every MUST and SHOULD of graphql-http's server audit", async () => {
    // Each audit call is a fresh address: the anonymous daily budget is not what is audited.
    let count = 0;
    const results = await auditServer({
      url: url(),
      fetchFn: (input: string | URL | Request, init: RequestInit = {}) =>
        fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), "x-forwarded-for": `203.0.113.${(count++ % 250) + 1}` } }),
    });
    const failed = results.filter((result) => result.status !== "ok" && !result.name.startsWith("MAY"));
    expect(failed.map((result) => `${result.name}: ${"reason" in result ? result.reason : ""}`)).toEqual([]);
    expect(results.length).toBeGreaterThan(20);
  }, 60_000);

  it("answers a variable that does not coerce with 400 under application/graphql-response+json, with errors and no data", async () => {
    const strict = await post({ query: QUERY_WITH_VARIABLE, variables: { limit: "three" } }, { accept: "application/graphql-response+json" });
    expect(strict.status).toBe(400);
    expect(strict.type).toContain("application/graphql-response+json");
    const body = JSON.parse(strict.text) as { data?: unknown; errors: { message: string; extensions: { code: string; status: number } }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]!.message).toMatch(/\$limit/);
    expect(body.errors[0]!.extensions).toMatchObject({ code: "INVALID_INPUT", status: 400 });
    // A missing required variable too.
    expect((await post({ query: QUERY_WITH_VARIABLE }, { accept: "application/graphql-response+json" })).status).toBe(400);
    // Under application/json the spec keeps 200 for request errors; the body says the same.
    const legacy = await post({ query: QUERY_WITH_VARIABLE, variables: { limit: "three" } }, { accept: "application/json" });
    expect(legacy.status).toBe(200);
    expect(JSON.parse(legacy.text)).toMatchObject({ errors: [{ extensions: { code: "INVALID_INPUT", status: 400 } }] });
  });

  it("answers 406, 415 and 405 with a JSON { error, code } body, not an empty one", async () => {
    const notAcceptable = await post({ query: "{ __typename }" }, { accept: "application/xml" });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.type).toContain("application/json");
    expect(JSON.parse(notAcceptable.text)).toEqual({ error: expect.stringMatching(/application\/graphql-response\+json/), code: "NOT_ACCEPTABLE" });

    const unsupported = await fetch(url(), { method: "POST", headers: { "content-type": "text/plain", ...freshAddress() }, body: "{ __typename }" });
    expect(unsupported.status).toBe(415);
    expect(unsupported.headers.get("content-type")).toContain("application/json");
    expect(await unsupported.json()).toEqual({ error: expect.stringMatching(/application\/json/), code: "UNSUPPORTED_MEDIA_TYPE" });

    const wrongMethod = await fetch(url(), { method: "PUT", headers: { "content-type": "application/json", ...freshAddress() }, body: "{}" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST");
    expect(await wrongMethod.json()).toEqual({ error: expect.stringMatching(/GET or POST/), code: "METHOD_NOT_ALLOWED" });
  });

  it("serves a strict client (graphql-http's own, which accepts only application/graphql-response+json)", async () => {
    let count = 0;
    const client = createClient({
      url: url(),
      headers: () => ({ "x-forwarded-for": `192.0.2.${++count}` }),
    });
    const run = (query: string, variables?: Record<string, unknown>) =>
      new Promise<{ data?: unknown; errors?: unknown[] }>((resolve, reject) => {
        let result: { data?: unknown; errors?: unknown[] } = {};
        client.subscribe({ query, variables }, { next: (value) => (result = value as typeof result), error: reject, complete: () => resolve(result) });
      });
    const answered = await run(QUERY_WITH_VARIABLE, { limit: 2 });
    expect(answered).toMatchObject({ data: { lookupBusinesses: { total: expect.any(Number) } } });
    // A refused request reaches a strict client as the 400 the spec asks for, with the errors in its body.
    const refused = await run(QUERY_WITH_VARIABLE, { limit: "three" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NetworkError);
    const response = (refused as NetworkError<Response>).response!;
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "INVALID_INPUT", status: 400 } }] });
  });
});
