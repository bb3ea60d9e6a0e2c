import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "./config";
import { variablesReadByCode } from "./deployment-variables";
import { appsWithBundles, dockerInstructions, imageNodeMajor, repoRoot } from "./dockerfile-instructions";
import { findPnpmCli } from "./find-pnpm-cli";

/**
 * What an operator deploys from: the Dockerfile, .env.example, the licence and the install. No
 * Docker here, so the Dockerfile is checked against the repository it builds: the pnpm, lockfile,
 * scripts, paths and bundles it names must be the ones that exist (docker-image.test.ts runs the
 * bundles laid out as its final stage holds them).
 */
const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const rootManifest = JSON.parse(read("package.json")) as {
  packageManager: string;
  engines: { node: string };
  scripts: Record<string, string>;
  license?: string;
};

describe("the Dockerfile", () => {
  const instructions = dockerInstructions();
  const finalStage = Math.max(...instructions.map((instruction) => instruction.stage));
  const runs = instructions.filter((instruction) => instruction.keyword === "RUN").map((instruction) => instruction.args);

  it("builds inside the image with the repository's pnpm, its lockfile and its build script", () => {
    const pnpmVersion = rootManifest.packageManager.replace(/^pnpm@/, "");
    expect(runs).toContain(`npm install -g pnpm@${pnpmVersion}`);
    expect(runs.some((run) => /pnpm install --offline --frozen-lockfile && pnpm build$/.test(run))).toBe(true);
    expect(runs.some((run) => /pnpm install --offline --frozen-lockfile --prod$/.test(run))).toBe(true);
    // Every `pnpm <script>` it runs is a script of the root package.json.
    for (const run of runs) {
      for (const [, script] of run.matchAll(/\bpnpm (?!install|fetch)([a-z:-]+)/g)) expect(Object.keys(rootManifest.scripts)).toContain(script);
    }
    // The base image's Node satisfies engines, and is a line still supported: an even (LTS) one, 22 or later (20 reached its end of life).
    const major = imageNodeMajor();
    expect(major).toBeGreaterThanOrEqual(Number(/>=(\d+)/.exec(rootManifest.engines.node)?.[1]));
    expect(major).toBeGreaterThanOrEqual(22);
    expect(major % 2).toBe(0);
  });

  it("copies from the build context only paths that exist and are not ignored", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    for (const copy of instructions.filter((instruction) => instruction.keyword === "COPY" && !instruction.args.startsWith("--from"))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources.filter((item) => item !== ".")) {
        expect(existsSync(path.join(repoRoot, source)), source).toBe(true);
        expect(ignored, source).not.toContain(source);
      }
    }
  });

  it("holds every app's bundles, which `pnpm build` writes: the server and worker, the admin CLI, the stdio MCP server", () => {
    const final = instructions.filter((instruction) => instruction.stage === finalStage);
    const apps = appsWithBundles();
    expect(apps).toEqual(["admin", "mcp", "server"]);
    for (const app of apps) {
      const copy = `--from=build /app/apps/${app}/dist ./apps/${app}/dist`;
      expect(
        final.some((instruction) => instruction.keyword === "COPY" && instruction.args === copy),
        copy,
      ).toBe(true);
    }
    // `pnpm build` builds each of them (pnpm -r build runs each app's build script).
    expect(rootManifest.scripts.build).toBe("pnpm -r build");
    for (const app of apps) expect((JSON.parse(read(`apps/${app}/package.json`)) as { scripts: Record<string, string> }).scripts.build).toBe("node build.mjs");
  });

  it("runs the bundle `pnpm build` writes, with node as PID 1, as a non-root user", () => {
    const final = instructions.filter((instruction) => instruction.stage === finalStage);
    const cmd = final.find((instruction) => instruction.keyword === "CMD");
    // Exec form: node itself is PID 1 and receives SIGTERM (a shell form would put sh in between).
    const command = JSON.parse(cmd!.args) as string[];
    expect(command[0]).toBe("node");
    const bundle = command[1]!;
    // The same bundle `pnpm start` runs, copied from where the build stage wrote it.
    expect(rootManifest.scripts.start).toMatch(new RegExp(`exec node ${bundle.replace(/[.]/g, "\\.")}$`));
    expect(
      final.some((instruction) => instruction.keyword === "COPY" && instruction.args === `--from=build /app/${path.dirname(bundle)} ./${path.dirname(bundle)}`),
    ).toBe(true);
    // And the build writes it: apps/server/build.mjs, which `pnpm build` runs.
    execFileSync(process.execPath, [path.join(repoRoot, "apps/server/build.mjs"), "--if-stale"], { cwd: repoRoot, stdio: "pipe" });
    expect(existsSync(path.join(repoRoot, bundle))).toBe(true);

    const users = final.filter((instruction) => instruction.keyword === "USER").map((instruction) => instruction.args);
    expect(users.at(-1)).toBe("node");
    expect(final.findIndex((instruction) => instruction.keyword === "USER")).toBeLessThan(final.indexOf(cmd!));
    // The data folder the unprivileged user writes: the image's DATA_DIR, created and owned by it.
    expect(final.find((instruction) => instruction.keyword === "ENV")?.args).toMatch(/\bDATA_DIR=\/data\b/);
    expect(final.some((instruction) => instruction.keyword === "RUN" && instruction.args.includes("chown node:node /data"))).toBe(true);
  });
});

/** NAME=value lines; commented-out lines are variables unset by default. */
function parseEnvFile(text: string): { set: Record<string, string>; unset: string[] } {
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const line of text.split("\n")) {
    const assignment = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (assignment) set[assignment[1]!] = assignment[2]!;
    const commented = /^# ([A-Z][A-Z0-9_]*)=/.exec(line);
    if (commented) unset.push(commented[1]!);
  }
  return { set, unset };
}

describe(".env.example", () => {
  const example = parseEnvFile(read(".env.example"));
  const listed = [...Object.keys(example.set), ...example.unset];

  it("lists every variable the code reads, and nothing it does not", () => {
    const readByCode = variablesReadByCode();
    // The scan itself finds what it must (a broken pattern would pass everything).
    expect(readByCode).toContain("DB_STARTUP_TIMEOUT_MS");
    expect(readByCode).toContain("DB_CONNECT_TIMEOUT_MS");
    expect(readByCode).toContain("DIRECTORY_URL");
    expect(readByCode).toContain("DIRECTORY_API_KEY");
    expect([...readByCode].filter((name) => !listed.includes(name)).sort()).toEqual([]);
    expect(listed.filter((name) => !readByCode.has(name)).sort()).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("gives the server's own defaults: its values configure exactly what no variable at all does", () => {
    const { DIRECTORY_URL, ...serverSettings } = example.set;
    expect(readConfig(serverSettings)).toEqual(readConfig({}));
    expect(DIRECTORY_URL).toBe("http://localhost:3000");
    expect(example.unset).toContain("DATABASE_URL");
  });
});

describe("licence and attributions", () => {
  it("the repository has a root LICENSE, the licence package.json names", () => {
    expect(rootManifest.license).toBe("MIT");
    expect(read("LICENSE")).toMatch(/^MIT License\n/);
  });

  it("the README names the data licences: GeoNames cities (CC BY 4.0) and OpenStreetMap (ODbL)", () => {
    const section = /## Data and licences\n([\s\S]*?)(\n## |$)/.exec(read("README.md"))?.[1] ?? "";
    expect(section).toMatch(/GeoNames, CC BY 4\.0, https:\/\/www\.geonames\.org/);
    expect(section).toMatch(/OpenStreetMap contributors, ODbL 1\.0,\s+https:\/\/www\.openstreetmap\.org\/copyright/);
  });
});

describe("installing", () => {
  const pnpmCli = findPnpmCli();

  // pnpm boxes a warning on every install for a dependency's build script it neither runs nor was told to skip.
  it.skipIf(!pnpmCli)(
    "reports no ignored build script (swagger-ui-dist's @scarf/scarf is skipped by name)",
    () => {
      const lock = read("pnpm-lock.yaml");
      const entry = /\n {2}'@scarf\/scarf@([^']+)':\n {4}resolution: \{integrity: ([^}]+)\}/.exec(lock);
      expect(entry).not.toBeNull();
      const [, version, integrity] = entry!;
      const workspace = read("pnpm-workspace.yaml");
      const buildSettings = /(onlyBuiltDependencies:[\s\S]*?)(?=\n[a-zA-Z]|$)/.exec(workspace)?.[1] ?? "";
      const ignoredSettings = /(ignoredBuiltDependencies:[\s\S]*?)(?=\n[a-zA-Z]|$)/.exec(workspace)?.[1] ?? "";
      // A one-dependency project with the repository's build settings, installed offline from the store the repository's install filled.
      const dir = mkdtempSync(path.join(tmpdir(), "directory-install-"));
      try {
        writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "t", private: true, dependencies: { "@scarf/scarf": version } }));
        writeFileSync(path.join(dir, "pnpm-workspace.yaml"), `${buildSettings}\n${ignoredSettings}\n`);
        writeFileSync(
          path.join(dir, "pnpm-lock.yaml"),
          `lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .:\n    dependencies:\n      '@scarf/scarf':\n        specifier: ${version}\n        version: ${version}\n\npackages:\n\n  '@scarf/scarf@${version}':\n    resolution: {integrity: ${integrity}}\n\nsnapshots:\n\n  '@scarf/scarf@${version}': {}\n`,
        );
        const output = execFileSync(process.execPath, [pnpmCli!, "install", "--offline", "--frozen-lockfile"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
        expect(output).toContain("@scarf/scarf");
        expect(output).not.toMatch(/Ignored build scripts/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
