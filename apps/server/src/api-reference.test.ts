import { describe, expect, it } from "vitest";
import { compareToExample, exampleUrl, prepareExample, renameRequest, sendExample } from "./openapi-examples";
import { exampleServerForThisFile, recordedExamples as examples } from "./openapi-examples-server";
import { getJson } from "./testing";

/**
 * The API reference: /docs renders /api/openapi.json from this origin alone, and every operation
 * of the document carries an example recorded from the demo world that the live server still
 * gives (regenerate with `pnpm --filter @directory/server examples:generate`).
 */

const fixture = exampleServerForThisFile();

describe("OpenAPI examples", () => {
  it("every operation in the document has an example request and response, and every example names an operation", () => {
    const operations = fixture.operations;
    expect(operations.size).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const [operationId, operation] of operations) {
      const { method, path } = operation;
      const example = examples.operations[operationId];
      if (!example) {
        missing.push(`${operationId}: no example in packages/api/src/openapi-examples.json`);
        continue;
      }
      expect(`${example.request.method} ${example.request.path}`, operationId).toBe(`${method} ${path}`);
      const content = operation.responses[String(example.status)]?.content;
      const success = content?.["application/json"] ?? Object.values(content ?? {})[0];
      if (!success?.examples?.demo) missing.push(`${operationId}: no example on its ${example.status} response`);
      else expect(success.examples.demo.value, operationId).toEqual(example.response);
      if (operation.requestBody && !operation.requestBody.content["application/json"]?.examples?.demo) missing.push(`${operationId}: no request body example`);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.required && !parameter.examples?.demo)
          missing.push(`${operationId}: no example for its required ${parameter.in} parameter ${parameter.name}`);
      }
      const keyed = !operation.security.some((requirement) => Object.keys(requirement).length === 0);
      if (keyed) expect(example.request.headers?.Authorization, `${operationId} needs a key`).toMatch(/^Bearer <your-\w+-key>$/);
    }
    expect(missing).toEqual([]);
    expect(Object.keys(examples.operations).filter((operationId) => !operations.has(operationId))).toEqual([]);
  });

  it("each example request, replayed on the demo world, gets the same status, shape and stable values", async () => {
    // Ids the replay creates (a webhook, a delivery) stand in for the recorded ones in later requests.
    const renamed = new Map<string, string>();
    const problems: string[] = [];
    for (const [operationId, example] of Object.entries(examples.operations)) {
      const request = renameRequest(example.request, renamed);
      await prepareExample(operationId, request, fixture.server.database);
      const live = await sendExample(fixture.server.url, request, fixture.keys);
      if (live.status !== example.status) {
        problems.push(
          `${operationId} (${exampleUrl(request)}): ${live.status} where the example has ${example.status}: ${JSON.stringify(live.body).slice(0, 300)}`,
        );
        continue;
      }
      problems.push(...compareToExample(example.response, live.body, new Set(example.volatile), renamed).map((problem) => `${operationId}: ${problem}`));
    }
    expect(problems).toEqual([]);
  });
});

describe("comparing a recorded example on a later day", () => {
  // The replay must hold on any date: the demo world's facts were observed at fixed dates, and go stale as the calendar moves.
  const compare = (example: unknown, live: unknown) => compareToExample(example, live, new Set(), new Map());

  it("accepts what time alone changes: more stale facts, a fresh fact gone stale", () => {
    expect(compare({ staleCount: 1, claims: [{ stale: false }, { stale: true }] }, { staleCount: 3, claims: [{ stale: true }, { stale: true }] })).toEqual([]);
    const instructions = (stale: string) => ({ agentInstructions: `${stale}Treat the name as its own statement.` });
    const none = "No fact here is stale (past its useful life). ";
    const named = (facts: string) => `Stale, past their useful life: ${facts} (say how old, or check before relying on them). `;
    expect(compare(instructions(none), instructions(named("phone")))).toEqual([]);
    expect(compare(instructions(named("phone")), instructions(named("openingHours, phone")))).toEqual([]);
    expect(compare(instructions(named("phone")), instructions(none))).toHaveLength(1);
    expect(compare(instructions(none), { agentInstructions: `${none}Treat the name otherwise.` })).toHaveLength(1);
  });

  it("refuses what time cannot do, and holds every other value exact", () => {
    expect(compare({ staleCount: 2 }, { staleCount: 1 })).toEqual(["staleCount: 1 where the example has 2, and time only adds stale facts"]);
    expect(compare({ claims: [{ stale: true }] }, { claims: [{ stale: false }] })).toHaveLength(1);
    expect(compare({ staleCount: 1 }, { staleCount: "1" })).toHaveLength(1);
    expect(compare({ reviewCount: 1 }, { reviewCount: 2 })).toEqual(["reviewCount: 2 where the example has 1"]);
  });
});

const ASSET_TYPES: Record<string, RegExp> = { ".js": /^text\/javascript; charset=utf-8$/, ".css": /^text\/css; charset=utf-8$/ };

describe("/docs", () => {
  it("answers HTML under a CSP that allows only this origin's scripts and styles", async () => {
    const response = await fetch(`${fixture.server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const csp = Object.fromEntries(
      (response.headers.get("content-security-policy") ?? "").split(";").map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(csp["default-src"]).toEqual(["'none'"]);
    expect(csp["script-src"]).toEqual(["'self'"]);
    expect(csp["style-src"]).toEqual(["'self'"]);
    // This origin and the public base URL's (the document's second server; the test server's is http://directory.test).
    expect(csp["connect-src"]).toEqual(["'self'", "http://directory.test"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
  });

  it("loads its scripts and stylesheets from /docs/assets, cached for a year, and points to no other origin", async () => {
    const html = await (await fetch(`${fixture.server.url}/docs`)).text();
    const urls = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    for (const url of urls) expect(new URL(url, fixture.server.url).origin, url).toBe(fixture.server.url);
    expect(html).not.toMatch(/https?:\/\/|\/\/[a-z]/i);
    const assets = urls.filter((url) => url.startsWith("/docs/assets/"));
    expect(assets.filter((url) => url.includes(".js?")).length).toBe(2);
    expect(assets.filter((url) => url.includes(".css?")).length).toBe(2);
    for (const url of assets) {
      const asset = await fetch(`${fixture.server.url}${url}`);
      expect(asset.status, url).toBe(200);
      const extension = new URL(url, fixture.server.url).pathname.match(/\.\w+$/)![0];
      expect(asset.headers.get("content-type"), url).toMatch(ASSET_TYPES[extension]!);
      expect(asset.headers.get("cache-control"), url).toBe("public, max-age=31536000, immutable");
      expect((await asset.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
      expect(asset.headers.get("etag"), url).toMatch(/^"\w+"$/);
    }
  });

  it("initialises the renderer from a served script that reads /api/openapi.json from this origin", async () => {
    const html = await (await fetch(`${fixture.server.url}/docs`)).text();
    const init = html.match(/src="(\/docs\/assets\/docs\.js\?v=\w+)"/)![1]!;
    const script = await (await fetch(`${fixture.server.url}${init}`)).text();
    expect(script).toContain('url: "/api/openapi.json"');
    expect(script).toContain("validatorUrl: null");
    expect(script).not.toMatch(/https?:\/\//);
    expect((await getJson(fixture.server.url, "/api/openapi.json")).status).toBe(200);
  });
});
