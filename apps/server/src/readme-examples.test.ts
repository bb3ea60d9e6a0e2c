import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { startTestServer, type TestServer } from "./testing";

/** The README's examples, read from README.md itself and run against the demo world, so a reader's first commands work. */

const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");
const adminBin = fileURLToPath(new URL("../../admin/bin/directory-admin.mjs", import.meta.url));
const run = promisify(execFile);

interface CurlExample {
  text: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The text of every ```sh block. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** Shell words of one command starting at `start`: quotes (spanning lines), `\` line continuations, $VARS from `env`; ends at a newline or a comment. */
function shellWords(text: string, start: number, env: Record<string, string>): { words: string[]; end: number } {
  const words: string[] = [];
  let word: string | null = null;
  let index = start;
  const expand = (quoted: string) => quoted.replace(/\$([A-Z_]+)/g, (_, name: string) => env[name] ?? "");
  for (; index < text.length; index++) {
    const char = text[index]!;
    if (char === "\\" && text[index + 1] === "\n") index++;
    else if (char === "'" || char === '"') {
      const close = text.indexOf(char, index + 1);
      const quoted = text.slice(index + 1, close);
      word = (word ?? "") + (char === '"' ? expand(quoted) : quoted);
      index = close;
    } else if (char === " ") {
      if (word !== null) words.push(word);
      word = null;
    } else if (char === "\n" || (char === "#" && word === null)) break;
    else word = (word ?? "") + char;
  }
  if (word !== null) words.push(word);
  return { words, end: index };
}

function curlExamples(env: Record<string, string>): CurlExample[] {
  const examples: CurlExample[] = [];
  for (const block of shellBlocks(readme)) {
    for (const match of block.matchAll(/^curl /gm)) {
      const { words, end } = shellWords(block, match.index, env);
      const example: CurlExample = { text: block.slice(match.index, end), method: "GET", url: "", headers: {}, body: undefined };
      for (let i = 1; i < words.length; i++) {
        const word = words[i]!;
        if (word === "-X") example.method = words[++i]!;
        else if (word === "-H") {
          const [name, ...value] = words[++i]!.split(":");
          example.headers[name!.trim().toLowerCase()] = value.join(":").trim();
        } else if (word === "-d") {
          example.body = words[++i]!;
          if (example.method === "GET") example.method = "POST";
        } else if (word === ">")
          i++; // the output file of a redirect
        else if (!word.startsWith("-")) example.url = word;
      }
      examples.push(example);
    }
  }
  return examples;
}

let server: TestServer;
let examples: CurlExample[];
beforeAll(async () => {
  server = await startTestServer();
  const { key } = await createApiKey(server.database.db, { kind: "developer", label: "readme examples" });
  // The owner-edit example needs a key bound to a business: the README's GraphQL example's one.
  const owner = await createApiKey(server.database.db, { kind: "business", businessSlug: "gupta-dental-care-mumbai", label: "readme examples" });
  const partner = await createApiKey(server.database.db, { kind: "partner", label: "readme examples" });
  examples = curlExamples({ KEY: key, BUSINESS_KEY: owner.key, PARTNER_KEY: partner.key });
});
afterAll(async () => {
  await server?.close();
});

/** The example's request against the test server: localhost:3000 is the server the README starts. */
function send(example: CurlExample): Promise<Response> {
  const target = example.url.replace(/^(https?:\/\/)?localhost:3000/, server.url);
  // example.com is a placeholder receiver that a test machine may not resolve; a loopback one (allowed in tests) stands in.
  const body = example.body?.replace("https://example.com/hooks", "http://127.0.0.1:9/hooks");
  return fetch(target, { method: example.method, headers: example.headers, body });
}

describe("the README's examples run against the demo world", () => {
  it("finds the curl examples, the GraphQL one among them", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(examples.filter((example) => example.url.endsWith("/api/graphql"))).toHaveLength(1);
    for (const example of examples) expect(example.url, example.text).toMatch(/^(https?:\/\/)?localhost:3000\//);
  });

  it("answers every curl example with 2xx and JSON", async () => {
    for (const example of examples) {
      const response = await send(example);
      const text = await response.text();
      expect(response.status, `${example.text}\n${text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${example.text}\n${text.slice(0, 300)}`).toBeLessThan(300);
      expect(response.headers.get("content-type"), example.text).toMatch(/json/);
      // NDJSON (the export): every line is JSON.
      const documents = response.headers.get("content-type")?.includes("ndjson") ? text.split("\n").filter(Boolean) : [text];
      for (const document of documents) expect(() => JSON.parse(document) as unknown, example.text).not.toThrow();
    }
  });

  it("answers the GraphQL example with its business's data and no errors", async () => {
    const graphql = examples.find((example) => example.url.endsWith("/api/graphql"))!;
    const slug = (JSON.parse(graphql.body!) as { variables: { slug: string } }).variables.slug;
    const body = (await (await send(graphql)).json()) as { data?: { entity: { name: string; category: string } | null }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data?.entity?.name).toBeTruthy();
    expect(body.data?.entity?.category).toBe("Dentist");
    expect(slug).toMatch(/-mumbai$/);
  });

  it("creates a partner key with the README's admin command", async () => {
    const line = readme.split("\n").find((text) => text.includes("admin keys create --kind partner"))!;
    const args = line.replace(/#.*$/, "").trim().split(/\s+/);
    const adminArgs = args.slice(args.indexOf("admin") + 1);
    expect(adminArgs).toEqual(["keys", "create", "--kind", "partner"]);
    const { stdout } = await run(process.execPath, [adminBin, "--url", server.url, "--key", server.adminKey, ...adminArgs], {
      env: { ...process.env, DIRECTORY_ADMIN_KEY: "" },
    });
    const key = /bdk_\w+/.exec(stdout)?.[0];
    expect(key, stdout).toBeTruthy();
    const feed = await fetch(`${server.url}/api/v2/partner-feed?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(feed.status).toBe(200);
  });

  it("names the URL the admin CLI could not reach", async () => {
    const unreachable = "http://127.0.0.1:9";
    const failed = run(process.execPath, [adminBin, "--url", unreachable, "--key", server.adminKey, "keys", "list"], {
      env: { ...process.env, DIRECTORY_ADMIN_KEY: "" },
    });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining(`admin: cannot reach ${unreachable} (`) as unknown });
  });
});
