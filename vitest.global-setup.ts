import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** TEST_SERVER=dist runs the suite against the bundle: build it first when a source changed. */
export default function setup(): void {
  if (process.env.TEST_SERVER !== "dist") return;
  execFileSync(process.execPath, [fileURLToPath(new URL("apps/server/build.mjs", import.meta.url)), "--if-stale"], { stdio: "inherit" });
}
