// Bundles an app's entry points (TypeScript sources) into <app>/dist as ESM for Node 20 and later, so
// production runs plain `node` with no TypeScript tooling. The workspace packages (@directory/*,
// TypeScript sources) are bundled in; every npm package stays external and is loaded from
// node_modules at run time, so each one a bundle imports must be a dependency of its app
// (checked here: pnpm links only declared dependencies next to dist/).
//
// Each app's build.mjs names its entry points and calls defineAppBuild:
//   node <app>/build.mjs             always build
//   node <app>/build.mjs --if-stale  build only when an input of the last build changed
// A bin script calls its build.mjs's ensureBuilt before importing its bundle, so a command works
// on a fresh checkout without a separate build step.
//
// Each output is written to a temporary file and renamed, so a process starting while another
// rebuilds never loads a half-written bundle.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** "@scope/name/sub/path" -> "@scope/name", "name/sub" -> "name". */
function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** Bundle @directory/* workspace sources; leave every other bare import to Node at run time. */
const externalNpmPackages = {
  name: "external-npm-packages",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      if (args.path.startsWith("@directory/")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * @param {string} appDir the app's directory (holds package.json, src/, dist/)
 * @param {Record<string, string>} entryPoints output name -> source path relative to appDir
 */
function appBuild(appDir, entryPoints) {
  const outdir = path.join(appDir, "dist");
  const stampFile = path.join(outdir, "build-inputs.json");
  // Besides the bundled sources: what decides how they are bundled and what they may import.
  const configInputs = [
    fileURLToPath(import.meta.url),
    path.join(appDir, "build.mjs"),
    path.join(appDir, "package.json"),
    path.join(repoRoot, "pnpm-lock.yaml"),
  ];

  /**
   * Up to date when every output exists and is newer than every input the last build read. An app
   * without its sources (the Docker image holds only the bundles) has nothing to rebuild from: its
   * bundles are what runs.
   */
  function upToDate() {
    if (!existsSync(path.join(appDir, "src"))) return Object.keys(entryPoints).every((name) => existsSync(path.join(outdir, `${name}.js`)));
    if (!existsSync(stampFile)) return false;
    let stamp;
    try {
      stamp = JSON.parse(readFileSync(stampFile, "utf8"));
    } catch {
      return false;
    }
    const outputs = Object.keys(entryPoints).map((name) => path.join(outdir, `${name}.js`));
    if (!outputs.every((file) => existsSync(file))) return false;
    const builtAt = Math.min(...outputs.map((file) => statSync(file).mtimeMs), statSync(stampFile).mtimeMs);
    return [...stamp.inputs, ...configInputs].every((file) => existsSync(file) && statSync(file).mtimeMs <= builtAt);
  }

  async function bundle() {
    const startedAt = performance.now();
    // Imported here: a start that finds the bundle up to date should not pay for loading esbuild.
    const { build } = await import("esbuild");
    const result = await build({
      absWorkingDir: appDir,
      entryPoints,
      outdir,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // Error types are logged by constructor name; bundling must not rename colliding classes.
      keepNames: true,
      sourcemap: "linked",
      metafile: true,
      write: false,
      logLevel: "warning",
      plugins: [externalNpmPackages],
    });

    const manifest = JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8"));
    const declared = new Set(Object.keys(manifest.dependencies ?? {}));
    const undeclared = new Set();
    for (const output of Object.values(result.metafile.outputs)) {
      for (const imported of output.imports) {
        if (!imported.external || isBuiltin(imported.path)) continue;
        const name = packageName(imported.path);
        if (!declared.has(name)) undeclared.add(name);
      }
    }
    const appName = path.relative(repoRoot, appDir);
    if (undeclared.size > 0) {
      throw new Error(
        `the bundle imports npm packages that ${appName}/package.json does not list under "dependencies": ${[...undeclared].sort().join(", ")}. ` +
          `Add each as "catalog:" so node can load it from ${appName}/dist.`,
      );
    }

    mkdirSync(outdir, { recursive: true });
    for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
    const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(appDir, input));
    writeAtomically(stampFile, `${JSON.stringify({ inputs }, null, 2)}\n`);
    const bytes = result.outputFiles.filter((file) => file.path.endsWith(".js")).reduce((sum, file) => sum + file.contents.length, 0);
    process.stderr.write(
      `built ${appName}/dist (${inputs.length} sources, ${(bytes / 1024).toFixed(0)} KiB of JS) in ${((performance.now() - startedAt) / 1000).toFixed(1)} s\n`,
    );
  }

  return { appName: path.relative(repoRoot, appDir), upToDate, bundle };
}

/**
 * What an app's build.mjs runs, directly or for a bin script before it imports its bundle:
 * builds (with onlyIfStale, only when an input changed) and exits 1 with one line on failure.
 */
async function buildApp(appDir, entryPoints, { onlyIfStale }) {
  const app = appBuild(appDir, entryPoints);
  if (onlyIfStale && app.upToDate()) return;
  try {
    await app.bundle();
  } catch (error) {
    process.stderr.write(`${app.appName} build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** True when the module at moduleUrl is the script node was asked to run (not an import). */
function isMainModule(moduleUrl) {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(moduleUrl);
}

/**
 * An app's build.mjs in one call: run as a script it builds (only when stale with --if-stale);
 * either way it returns the app's ensureBuilt, which its bin awaits before importing the bundle.
 * @param {string} buildScriptUrl the build.mjs's import.meta.url (its folder is the app's)
 * @param {Record<string, string>} entryPoints output name -> source path relative to the app
 */
export async function defineAppBuild(buildScriptUrl, entryPoints) {
  const appDir = path.dirname(fileURLToPath(buildScriptUrl));
  if (isMainModule(buildScriptUrl)) await buildApp(appDir, entryPoints, { onlyIfStale: process.argv.includes("--if-stale") });
  return () => buildApp(appDir, entryPoints, { onlyIfStale: true });
}
