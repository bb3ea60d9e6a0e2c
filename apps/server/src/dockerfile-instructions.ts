import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The Dockerfile read as deployment.test.ts and docker-image.test.ts check it (no Docker here). */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), each with the index of its stage. */
export function dockerInstructions(): Instruction[] {
  const text = readFileSync(path.join(repoRoot, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
  let stage = -1;
  const instructions: Instruction[] = [];
  for (const line of text.split("\n")) {
    const match = /^([A-Z]+)\s+(.*)$/.exec(line.trim());
    if (!match || line.trim().startsWith("#")) continue;
    if (match[1] === "FROM") stage++;
    instructions.push({ keyword: match[1]!, args: match[2]!.trim(), stage });
  }
  return instructions;
}

/** The major version of the Node image the Dockerfile builds on (ARG NODE_IMAGE=node:<major>-...). */
export function imageNodeMajor(): number {
  const image = /ARG NODE_IMAGE=node:(\d+)/.exec(readFileSync(path.join(repoRoot, "Dockerfile"), "utf8"));
  return Number(image?.[1]);
}

/** The apps that bundle (each has a build.mjs writing apps/<app>/dist), by folder name. */
export function appsWithBundles(): string[] {
  return readdirSync(path.join(repoRoot, "apps"))
    .filter((app) => existsSync(path.join(repoRoot, "apps", app, "build.mjs")))
    .sort();
}
