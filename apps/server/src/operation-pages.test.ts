import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, type OpenApiDocument, SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * The REST API as an agent can afford to learn it: llms.txt names every operation of the OpenAPI
 * document in one line and links its page; each page (parameters, responses, one example) costs
 * under 1,500 o200k tokens, where the whole document costs tens of thousands.
 */

const PAGE_TOKENS_MAX = 1_500;

let server: TestServer;
let operations: { operationId: string; method: string; path: string }[];
let llms: string;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  const { body } = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
  operations = Object.entries(body.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, { operationId: string }>).map(([method, { operationId }]) => ({
      operationId,
      method: method.toUpperCase(),
      path,
    })),
  );
  llms = await (await fetch(`${server.url}/llms.txt`)).text();
});
afterAll(async () => {
  await server?.close();
});

describe("llms.txt and a page per REST operation", () => {
  it("gives every operation one line: method, path, what it does, auth, and its page", () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
    for (const { operationId, method, path } of operations) {
      const lines = llms.split("\n").filter((line) => line.startsWith(`- ${method} ${path}: `));
      expect(lines, `${method} ${path}`).toHaveLength(1);
      expect(lines[0]).toMatch(/: .+\. Auth: (none; a key raises the limits|any API key|partner key|business key|admin key)\. /);
      expect(lines[0]).toContain(`[${operationId}](http://directory.test/api/docs/operations/${operationId}.md)`);
    }
  });

  it("serves each page as Markdown under 1,500 tokens, with its parameters, responses and a recorded example", async () => {
    const tokens: Record<string, number> = {};
    for (const { operationId, method, path } of operations) {
      const response = await fetch(`${server.url}/api/docs/operations/${operationId}.md`);
      expect(response.status, operationId).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const page = await response.text();
      tokens[operationId] = encode(page).length;
      expect(page, operationId).toContain(`\`${method} ${path}\``);
      expect(page, operationId).toMatch(/## Responses\n\n- 2\d\d: /);
      // The example: the recorded request and its answer (JSON, or a streamed body's first lines).
      expect(page, operationId).toMatch(new RegExp(`## Example\\n[\\s\\S]*\`\`\`http\\n${method} /`));
      expect(page, operationId).toMatch(/Answer \(2\d\d[;,][^\n]*\n\n```(json\n\{|text\n.)/);
    }
    const over = Object.entries(tokens).filter(([, count]) => count >= PAGE_TOKENS_MAX);
    expect(over, JSON.stringify(tokens)).toEqual([]);
  });

  it("answers an unknown page with a JSON 404 that points at llms.txt", async () => {
    const { status, body } = await getJson<{ error: string; code: string }>(server.url, "/api/docs/operations/noSuchOperation.md");
    expect(status).toBe(404);
    expect(body).toEqual({ error: expect.stringContaining("/llms.txt"), code: "NOT_FOUND" });
  });
});
