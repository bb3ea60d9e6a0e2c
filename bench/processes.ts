import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

/** Starts a child process and resolves once GET {url}/healthz (or any path) answers 200. */
export async function startAndWait(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  timeoutMs: number,
): Promise<{ child: ChildProcess; readyAfterMs: number }> {
  const started = performance.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).status === 200) return { child, readyAfterMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill("SIGTERM");
  throw new Error(`${readyUrl} not ready within ${timeoutMs} ms`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000).then(() => child.kill("SIGKILL"))]);
}
