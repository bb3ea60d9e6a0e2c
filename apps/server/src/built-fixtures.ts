import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

/** Running the built apps as production does (plain node from the repository root), for built-server and built-apps tests. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface Run {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** "close": the process has exited and its output is drained. */
  exited: Promise<number | null>;
}

export function run(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, LOG_LEVEL: "info", ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
export function waitFor(running: Run, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(running.output());
      if (!match) return;
      running.child.stdout.off("data", check);
      running.child.stderr.off("data", check);
      resolve(match);
    };
    running.child.stdout.on("data", check);
    running.child.stderr.on("data", check);
    check();
    void running.exited.then((code) => reject(new Error(`exited (${code}) before ${pattern}:\n${running.output()}`)));
  });
}

/** A bundle (path from the repository root) imports no workspace source and no TypeScript tooling; returns its text. */
export function expectPlainNodeBundle(bundleFile: string): string {
  const bundle = readFileSync(path.join(repoRoot, bundleFile), "utf8");
  // Booleans, not toMatch: a failure would print the whole bundle.
  expect(/from\s*"@directory\//.test(bundle), `${bundleFile} imports a workspace package`).toBe(false);
  expect(/from\s*"(tsx|typescript|esbuild)["/]/.test(bundle), `${bundleFile} imports TypeScript tooling`).toBe(false);
  return bundle;
}
