import { readFileSync } from "node:fs";

/**
 * The business a BUSINESS.json file describes, as one JSON object; a file that is missing or not
 * a JSON object is refused here, naming the file. Its fields are checked by the server, which
 * names any bad one (the same rules as every write).
 */
export function readBusinessFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`${file} must hold one JSON object: { "name": ..., "category": ..., "city": ..., and any of phone, website, email, ... }`);
  }
  return parsed as Record<string, unknown>;
}
