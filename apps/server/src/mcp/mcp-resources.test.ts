import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ProtocolError } from "@modelcontextprotocol/client";
import { businesses } from "@directory/db";
import type { TListCategoriesOutput } from "@directory/api/schemas";
import { getJson, SMALL_TEST_WORLD, startTestServer, type TestServer } from "../testing";

/** "Resource not found": -32602, as the 2026-07-28 revision asks of every revision (earlier ones named -32002; clients accept both). */
const RESOURCE_NOT_FOUND = -32602;

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  client = new Client({ name: "mcp-resources-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

async function readError(uri: string): Promise<ProtocolError> {
  const error = await client.readResource({ uri }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

describe("MCP category resources and completion", () => {
  it("directory://categories holds the same list as GET /api/v2/categories", async () => {
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(expect.objectContaining({ uri: "directory://categories", name: "categories", mimeType: "application/json" }));
    const read = await client.readResource({ uri: "directory://categories" });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content).toMatchObject({ uri: "directory://categories", mimeType: "application/json" });
    const rest = await getJson<TListCategoriesOutput>(server.url, "/api/v2/categories");
    expect(JSON.parse(content.text) as unknown).toEqual(rest.body);
    const dentist = rest.body.categories.find((category) => category.slug === "dentist");
    expect(dentist).toMatchObject({ name: expect.any(String), synonyms: expect.any(Array), listings: expect.any(Number) });
  });

  it("directory://categories/{category} reads one category by slug, name or synonym; an unknown one is Resource not found", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(expect.objectContaining({ name: "category", uriTemplate: "directory://categories/{category}" }));
    const all = (await getJson<TListCategoriesOutput>(server.url, "/api/v2/categories")).body.categories;
    const withSynonym = all.find((category) => category.synonyms.length > 0)!;
    for (const asked of [withSynonym.slug, encodeURIComponent(withSynonym.synonyms[0]!)]) {
      const read = await client.readResource({ uri: `directory://categories/${asked}` });
      expect(JSON.parse((read.contents[0] as { text: string }).text) as unknown).toEqual(withSynonym);
    }
    const error = await readError("directory://categories/no-such-category");
    expect(error.code).toBe(RESOURCE_NOT_FOUND);
    expect(error.message).toMatch(/no category "no-such-category"; directory:\/\/categories lists them all/);
  });

  it("completes the category argument of both prompts and of the category template from the category list", async () => {
    const all = (await getJson<TListCategoriesOutput>(server.url, "/api/v2/categories")).body.categories;
    const slugs = all.map((category) => category.slug);
    for (const ref of [
      { type: "ref/prompt" as const, name: "compare_top_n" },
      { type: "ref/prompt" as const, name: "find_and_contact" },
      { type: "ref/resource" as const, uri: "directory://categories/{category}" },
    ]) {
      const dent = await client.complete({ ref, argument: { name: "category", value: "dent" } });
      expect(dent.completion.values[0], JSON.stringify(ref)).toBe("dentist");
      for (const value of dent.completion.values) expect(slugs).toContain(value);
      // A synonym completes to the category it names.
      const withSynonym = all.find((category) => category.synonyms.some((s: string) => !category.slug.includes(s.slice(0, 4))))!;
      const synonym = withSynonym.synonyms.find((s) => !withSynonym.slug.includes(s.slice(0, 4)))!;
      expect((await client.complete({ ref, argument: { name: "category", value: synonym } })).completion.values).toContain(withSynonym.slug);
      // Nothing typed: every category, most listings first, within the spec's 100 values.
      const everything = await client.complete({ ref, argument: { name: "category", value: "" } });
      expect(slugs.length).toBeLessThanOrEqual(100);
      expect([...everything.completion.values].sort()).toEqual([...slugs].sort());
      expect(everything.completion.values[0]).toBe([...all].sort((a, b) => b.listings - a.listings || a.slug.localeCompare(b.slug))[0]!.slug);
      expect((await client.complete({ ref, argument: { name: "category", value: "zzqx" } })).completion.values).toEqual([]);
    }
  });
});

describe("MCP resources/read of something that does not exist", () => {
  it("answers an unknown business slug with Resource not found, not an internal error", async () => {
    const error = await readError("directory://business/no-such-business-anywhere");
    expect(error.code).toBe(RESOURCE_NOT_FOUND);
    expect(error.message).toMatch(/directory:\/\/business\/no-such-business-anywhere/);
    expect(error.data).toMatchObject({ uri: "directory://business/no-such-business-anywhere" });
  });

  it("answers a business no longer served with Resource not found too, and a served one with its profile", async () => {
    const [gone] = await server.database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "inactive")).limit(1);
    expect((await readError(`directory://business/${gone!.slug}`)).code).toBe(RESOURCE_NOT_FOUND);
    const [served] = await server.database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "active")).limit(1);
    const read = await client.readResource({ uri: `directory://business/${served!.slug}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text).identity).toBeDefined();
  });
});
