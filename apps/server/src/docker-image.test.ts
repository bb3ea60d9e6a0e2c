import { execFile, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsWithBundles, dockerInstructions, imageNodeMajor, repoRoot } from "./dockerfile-instructions";

const run = promisify(execFile);

/**
 * The image without Docker: each app built as the build stage builds it, laid out as the final
 * stage holds it (its bundles beside its bin and build.mjs, its sources removed, the repository's
 * installed packages standing in for the production ones), and run on the Node line the image
 * names: the admin CLI and the stdio MCP server through their bins, the server and the worker
 * from their bundles.
 */

let image: string;
let node: string;

/** The Node of the image's line (fetched once by npx), else this one when it cannot be had offline. */
function imageNode(): string {
  const major = imageNodeMajor();
  if (Number(process.versions.node.split(".")[0]) === major) return process.execPath;
  try {
    return execFileSync("npx", ["-y", "-p", `node@${major}`, "node", "-p", "process.execPath"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 120_000,
    }).trim();
  } catch {
    return process.execPath;
  }
}

beforeAll(() => {
  node = imageNode();
  image = mkdtempSync(path.join(tmpdir(), "directory-image-"));
  const link = (from: string) => symlinkSync(path.join(repoRoot, from), path.join(image, from));
  cpSync(path.join(repoRoot, "package.json"), path.join(image, "package.json"));
  mkdirSync(path.join(image, "scripts"));
  cpSync(path.join(repoRoot, "scripts/bundle-app.mjs"), path.join(image, "scripts/bundle-app.mjs"));
  link("node_modules");
  link("packages");
  for (const app of appsWithBundles()) {
    execFileSync(process.execPath, [path.join(repoRoot, "apps", app, "build.mjs"), "--if-stale"], { cwd: repoRoot, stdio: "pipe" });
    const dir = path.join(image, "apps", app);
    mkdirSync(dir, { recursive: true });
    for (const file of ["package.json", "build.mjs", "bin", "dist"].filter((name) => existsSync(path.join(repoRoot, "apps", app, name)))) {
      cpSync(path.join(repoRoot, "apps", app, file), path.join(dir, file), { recursive: true });
    }
    link(`apps/${app}/node_modules`);
  }
}, 180_000);
afterAll(() => {
  if (image) rmSync(image, { recursive: true, force: true });
});

describe("the image's layout", () => {
  it("is the Dockerfile's: the production stage drops the apps' sources, which the layout here leaves out too", () => {
    const runs = dockerInstructions()
      .filter((instruction) => instruction.keyword === "RUN")
      .map((instruction) => instruction.args);
    expect(runs.some((command) => /\brm -rf apps\/\*\/src\b/.test(command))).toBe(true);
    expect(Number(/^v(\d+)/.exec(execFileSync(node, ["--version"], { encoding: "utf8" }))?.[1])).toSatisfy(
      (major: number) => major === imageNodeMajor() || node === process.execPath,
    );
  });

  it("runs the admin CLI's bin on its bundle, building nothing", async () => {
    const bundle = path.join(image, "apps/admin/dist/cli.js");
    const builtAt = statSync(bundle).mtimeMs;
    const { stdout, stderr } = await run(node, [path.join(image, "apps/admin/bin/directory-admin.mjs"), "--help"], { cwd: image });
    expect(stdout).toMatch(/^Usage: admin /);
    expect(stdout).toContain("import");
    expect(stderr).not.toMatch(/built|build failed/);
    expect(statSync(bundle).mtimeMs).toBe(builtAt);
  });

  it("starts the stdio MCP server from its bin and answers an initialize request", async () => {
    const child = spawn(node, [path.join(image, "apps/mcp/bin/directory-mcp.mjs")], {
      cwd: image,
      env: { ...process.env, DIRECTORY_URL: "http://127.0.0.1:9" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    try {
      const answer = new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
        });
        child.once("exit", (code) => reject(new Error(`exited ${code} before answering`)));
      });
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "image-test", version: "1" } },
      };
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      const response = JSON.parse(await answer) as { id: number; result?: { serverInfo?: { name?: string } } };
      expect(response.id).toBe(1);
      expect(response.result?.serverInfo?.name).toBeTruthy();
    } finally {
      child.kill();
    }
  });

  // A bad variable is read before anything starts: one line and exit 1, once every import of the bundle has loaded on this Node.
  it.each(["main.js", "worker-main.js"])("loads the server's %s and exits with one line on a bad variable", async (bundle) => {
    const failed = await run(node, [path.join(image, "apps/server/dist", bundle)], { cwd: image, env: { ...process.env, PORT: "eighty" } }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim()).toMatch(/^[^\n]*: bad environment: PORT must be an integer 0-65535, got "eighty"$/);
  });
});
