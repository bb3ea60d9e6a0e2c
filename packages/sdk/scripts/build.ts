import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { emitRouterTypes } from "./router-types";

/**
 * Builds the published package: ESM JavaScript plus declarations in dist/. The router's types are
 * printed from @directory/api into dist/router-types.d.ts, and the declarations import them from
 * there, so the package needs none of the server's code, only @trpc/client, @trpc/server and superjson.
 */
const sdkDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = path.join(sdkDir, "dist");
const routerTypes = emitRouterTypes(path.resolve(sdkDir, "../api"));
mkdirSync(path.join(sdkDir, "build"), { recursive: true });
writeFileSync(path.join(sdkDir, "build/router-types.d.ts"), routerTypes);

rmSync(distDir, { recursive: true, force: true });
const configPath = path.join(sdkDir, "tsconfig.build.json");
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!config) throw new Error(`cannot read ${configPath}`);
const program = ts.createProgram(config.fileNames, config.options);
const result = program.emit();
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => sdkDir, getNewLine: () => "\n" };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

writeFileSync(path.join(distDir, "router-types.d.ts"), routerTypes);
for (const file of readdirSync(distDir).filter((name) => name.endsWith(".d.ts"))) {
  const full = path.join(distDir, file);
  writeFileSync(full, readFileSync(full, "utf8").replaceAll('from "@directory/api"', 'from "./router-types.js"'));
}
process.stderr.write(`built ${path.relative(process.cwd(), distDir)}\n`);
