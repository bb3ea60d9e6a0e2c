import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRegistry, scanOsmExtract } from "@directory/api";
import { listingOfRecord, OSM_EXTRACTS } from "@directory/api/testing";
import type { TEntityProfile, TGetAgentProfileOutput } from "@directory/api/schemas";
import { getJson, type McpAnswer, startTestServer, type TestServer, type ToolResult } from "./testing";

/*
 * Opening hours the import could not read into days and times are kept as the source wrote them
 * (openingHoursText). Every door that presents hours gives that text, said to be the source's
 * wording, never "Not known" nor an empty answer (issue 41).
 */

/** Liechtenstein 2013's one opening_hours string in a form the import does not read ("08.30", "Do", "So"). */
const AS_WRITTEN = "Mo,Do,Fr 08.30-22.00;Sa 17:00-24:00;So 10:00-22:00";

let server: TestServer;
let slug: string;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  const scan = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2013);
  await importRegistry(server.database.db, scan, { source: "openstreetmap" });
  const record = scan.records.find((candidate) => candidate.facts.openingHoursText === AS_WRITTEN)!;
  slug = (await listingOfRecord(server.database.db, record.recordId)).slug;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe("hours kept only as the source wrote them", () => {
  it("the profile page shows the text, marked as the source's wording, where it said Not known", async () => {
    const html = await (await fetch(`${server.url}/business/${slug}`)).text();
    const section = html.slice(html.indexOf('<h2 id="hours">'), html.indexOf('<h2 id="services">'));
    expect(section).toContain(`<p class="hours-as-written">As the source writes them: <q>${AS_WRITTEN}</q></p>`);
    expect(section).not.toContain("Not known");
  });

  it("the profile (REST and GraphQL) carries it beside the empty structured hours", async () => {
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
    expect(status).toBe(200);
    expect(body.contact).toMatchObject({ openingHours: [], openingHoursText: AS_WRITTEN });
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ entity(slug: "${slug}") { contact { openingHours { days } openingHoursText } } }` }),
    });
    const { data } = (await response.json()) as { data: { entity: { contact: unknown } } };
    expect(data.entity.contact).toEqual({ openingHours: [], openingHoursText: AS_WRITTEN });
  });

  it("agent.json answers when it is open with the text, as the source's words", async () => {
    const { body } = await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`);
    const open = body.intents.find((intent) => intent.query.startsWith("When is"));
    expect(open).toMatchObject({ answer: `As the source writes them: ${AS_WRITTEN} (local time).` });
    expect(open!.confidence).toBeGreaterThan(0);
  });

  it("the MCP profile text gives the text in its contact lines", async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_business_profile", arguments: { slug } } }),
    });
    const result = ((await response.json()) as McpAnswer<ToolResult>).result!;
    expect(result.isError).toBeFalsy();
    const text = result.content.map((part) => part.text).join("\n");
    expect(text).toContain(`openingHoursText: ${AS_WRITTEN.replace(/\|/g, "/")}`);
  });
});
