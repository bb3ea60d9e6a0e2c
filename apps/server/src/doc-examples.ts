import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The examples of README.md and the docs/ pages, read from the Markdown itself, for
 * readme-examples.test.ts to run: what a reader copies is what the tests run.
 */

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface Page {
  /** As a reader finds it: README.md, docs/webhooks.md. */
  path: string;
  text: string;
}

/** README.md first, then every docs/*.md page in name order. */
export function readPages(): Page[] {
  const docs = readdirSync(join(repoRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs].map((path) => ({ path, text: readFileSync(join(repoRoot, path), "utf8") }));
}

export interface Block {
  page: string;
  language: string;
  text: string;
}

/** Every fenced block of a page, with its language. */
export function fencedBlocks(page: Page): Block[] {
  return [...page.text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((match) => ({ page: page.path, language: match[1]!, text: match[2]! }));
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

export interface Command {
  page: string;
  /** The command as written (continuation lines included, its comment left out). */
  text: string;
  words: string[];
}

/** The commands of a ```sh block, comment lines skipped. */
export function shellCommands(block: Block, env: Record<string, string>): Command[] {
  const commands: Command[] = [];
  let index = 0;
  while (index < block.text.length) {
    const lineEnd = block.text.indexOf("\n", index) === -1 ? block.text.length : block.text.indexOf("\n", index);
    const line = block.text.slice(index, lineEnd).trim();
    if (line === "" || line.startsWith("#")) {
      index = lineEnd + 1;
      continue;
    }
    const { words, end } = shellWords(block.text, index, env);
    commands.push({ page: block.page, text: block.text.slice(index, end).trim(), words });
    // A trailing comment: the rest of its line.
    index = block.text[end] === "#" ? block.text.indexOf("\n", end) + 1 || block.text.length : end + 1;
  }
  return commands;
}

export interface CurlExample {
  page: string;
  text: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A curl command's request: -X, -H, -d and the URL; other flags and a `> file` redirect are left out. */
export function curlRequest(command: Command): CurlExample {
  const { words } = command;
  const example: CurlExample = { page: command.page, text: command.text, method: "GET", url: "", headers: {}, body: undefined };
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
  return example;
}

/** Admin CLI commands that talk to a running server (the rest work on the database directly). */
const SERVER_COMMANDS = new Set(["keys", "business", "claim", "claims", "corrections", "accounts", "agencies"]);

/** The words after `admin` or `exec directory-admin`, without a `> file` redirect; null when the command is not the admin CLI. */
export function adminArgs(command: Command): string[] | null {
  const [npx, yes, pnpm, ...rest] = command.words;
  if (npx !== "npx" || yes !== "-y" || pnpm !== "pnpm@10.34.8") return null;
  const start = rest[0] === "admin" ? 1 : rest[0] === "exec" && rest[1] === "directory-admin" ? 2 : -1;
  if (start === -1) return null;
  const args = rest.slice(start);
  const redirect = args.indexOf(">");
  return redirect === -1 ? args : args.slice(0, redirect);
}

/** The test that runs a command, or null when none does. */
export function runBy(command: Command): "curl" | "admin" | string | null {
  if (command.words[0] === "curl") return "curl";
  // The README's two commands: start-signals.test.ts runs `pnpm start`; the test command is the suite itself.
  if (command.page === "README.md" && /^npx -y pnpm@10\.34\.8 install && npx -y pnpm@10\.34\.8 (start|test)$/.test(command.text)) {
    return "apps/server/src/start-signals.test.ts and the suite";
  }
  const args = adminArgs(command);
  if (args && SERVER_COMMANDS.has(args[0]!)) return "admin";
  // Found there by the same pattern: lines starting with `npx ` that contain ` import osm `.
  if (args?.[0] === "import" && command.page === "docs/osm-import.md") return "apps/admin/src/import-commands.test.ts";
  return null;
}
