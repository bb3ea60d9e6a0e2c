import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { adminArgs, type Command, curlRequest, type CurlExample, fencedBlocks, readPages, repoRoot, runBy, shellCommands } from "./doc-examples";
import { startTestServer, type TestServer } from "./testing";

/**
 * The examples of README.md and every docs/*.md page, read from the Markdown and run against the
 * demo world, so a reader's first commands work. Every fenced block must be run by some test.
 */

const adminBin = fileURLToPath(new URL("../../admin/bin/directory-admin.mjs", import.meta.url));
const run = promisify(execFile);
const pages = readPages();
const blocks = pages.flatMap(fencedBlocks);

let server: TestServer;
let commands: Command[];
let examples: CurlExample[];
beforeAll(async () => {
  server = await startTestServer();
  const { key } = await createApiKey(server.database.db, { kind: "developer", label: "readme examples" });
  // The owner-edit example needs a key bound to a business: the GraphQL example's one.
  const owner = await createApiKey(server.database.db, { kind: "business", businessSlug: "gupta-dental-care-mumbai", label: "readme examples" });
  const partner = await createApiKey(server.database.db, { kind: "partner", label: "readme examples" });
  const env = { KEY: key, BUSINESS_KEY: owner.key, PARTNER_KEY: partner.key };
  commands = blocks.filter((block) => block.language === "sh").flatMap((block) => shellCommands(block, env));
  examples = commands.filter((command) => runBy(command) === "curl").map(curlRequest);
});
afterAll(async () => {
  await server?.close();
});

const named = (example: { page: string; text: string }) => `${example.page}: ${example.text}`;

/** The example's request against the test server: localhost:3000 is the server the README starts. */
function send(example: CurlExample): Promise<Response> {
  const target = example.url.replace(/^(https?:\/\/)?localhost:3000/, server.url);
  // example.com is a placeholder receiver that a test machine may not resolve; a loopback one (allowed in tests) stands in.
  const body = example.body?.replace("https://example.com/hooks", "http://127.0.0.1:9/hooks");
  return fetch(target, { method: example.method, headers: example.headers, body });
}

/** The admin CLI as the docs run it, pointed at the test server with its admin key. */
function admin(args: string[]) {
  return run(process.execPath, [adminBin, "--url", server.url, "--key", server.adminKey, ...args], {
    env: { ...process.env, DIRECTORY_ADMIN_KEY: "" },
  });
}

describe("every example of the README and docs/ is run by a test", () => {
  it("reads the README and the docs pages", () => {
    expect(pages[0]!.path).toBe("README.md");
    expect(pages.length).toBeGreaterThanOrEqual(10);
  });

  it("has only fenced blocks a test runs: shell commands it knows, and the MCP client configuration", () => {
    for (const block of blocks) expect(["sh", "json"], `${block.page}: a \`\`\`${block.language} block`).toContain(block.language);
    for (const command of commands) expect(runBy(command), `${named(command)}\nno test runs this command`).not.toBeNull();
    // One JSON block: the MCP configuration, run below.
    expect(blocks.filter((block) => block.language === "json").map((block) => block.page)).toEqual(["docs/mcp.md"]);
  });
});

describe("the curl examples run against the demo world", () => {
  it("finds the curl examples, the GraphQL one among them", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(examples.filter((example) => example.page === "README.md").length).toBeGreaterThanOrEqual(3);
    expect(examples.filter((example) => example.url.endsWith("/api/graphql"))).toHaveLength(1);
    for (const example of examples) expect(example.url, named(example)).toMatch(/^(https?:\/\/)?localhost:3000\//);
  });

  it("answers every curl example with 2xx and JSON", async () => {
    for (const example of examples) {
      const response = await send(example);
      const text = await response.text();
      expect(response.status, `${named(example)}\n${text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${named(example)}\n${text.slice(0, 300)}`).toBeLessThan(300);
      expect(response.headers.get("content-type"), named(example)).toMatch(/json/);
      // NDJSON (the export): every line is JSON.
      const documents = response.headers.get("content-type")?.includes("ndjson") ? text.split("\n").filter(Boolean) : [text];
      for (const document of documents) expect(() => JSON.parse(document) as unknown, named(example)).not.toThrow();
      // MCP answers 200 to a refused call too: the JSON-RPC answer must be a result, and a tool call a success.
      if (example.url.endsWith("/api/mcp")) {
        const answer = JSON.parse(text) as { result?: { isError?: boolean }; error?: unknown };
        expect(answer.error, named(example)).toBeUndefined();
        expect(answer.result?.isError, named(example)).not.toBe(true);
      }
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
});

describe("the admin CLI examples run against a server", () => {
  it("creates a partner key with the documented admin command", async () => {
    const line = pages.flatMap((page) => page.text.split("\n")).find((text) => text.includes("admin keys create --kind partner"))!;
    const args = line.replace(/#.*$/, "").trim().split(/\s+/);
    const partnerArgs = args.slice(args.indexOf("admin") + 1);
    expect(partnerArgs).toEqual(["keys", "create", "--kind", "partner"]);
    const { stdout } = await admin(partnerArgs);
    const key = /bdk_\w+/.exec(stdout)?.[0];
    expect(key, stdout).toBeTruthy();
    const feed = await fetch(`${server.url}/api/v2/partner-feed?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(feed.status).toBe(200);
  });

  it("runs every admin command of the docs that talks to a server, each exiting 0 (and printing JSON with --json)", async () => {
    const lines = commands.filter((command) => runBy(command) === "admin");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const command of lines) {
      const args = adminArgs(command)!;
      const { stdout } = await admin(args).catch((error: Error & { stderr?: string }) => {
        throw new Error(`${named(command)}\n${error.stderr ?? error.message}`);
      });
      if (args.includes("--json")) expect(() => JSON.parse(stdout) as unknown, named(command)).not.toThrow();
    }
  }, 60_000);

  it("names the URL the admin CLI could not reach", async () => {
    const unreachable = "http://127.0.0.1:9";
    const failed = run(process.execPath, [adminBin, "--url", unreachable, "--key", server.adminKey, "keys", "list"], {
      env: { ...process.env, DIRECTORY_ADMIN_KEY: "" },
    });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining(`admin: cannot reach ${unreachable} (`) as unknown });
  });
});

describe("the MCP page's client configuration", () => {
  it("starts the stdio server it names, which lists as many tools as the page says", async () => {
    const block = blocks.find((candidate) => candidate.language === "json")!;
    const page = pages.find((candidate) => candidate.path === block.page)!;
    const config = JSON.parse(block.text) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    const entry = config.mcpServers["business-directory"]!;
    expect(entry.command).toBe("node");
    // The page's placeholder for the clone's path.
    const args = entry.args.map((arg) => arg.replace("/path/to/repo/", repoRoot));
    expect(existsSync(args[0]!), args[0]).toBe(true);
    const client = new Client({ name: "readme-examples", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args,
        env: { ...(process.env as Record<string, string>), ...entry.env, DIRECTORY_URL: server.url },
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(page.text).toContain(`${tools.length} tools`);
      for (const tool of tools) expect(page.text, tool.name).toContain(`| ${tool.name} |`);
    } finally {
      await client.close();
    }
  }, 60_000);
});
