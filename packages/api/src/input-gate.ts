import { DomainError } from "./errors";

/**
 * The one input gate every procedure passes, whatever the door: strings may not carry control
 * characters (tab, line feed and carriage return excepted: messages have lines) or lone UTF-16
 * surrogates, which PostgreSQL refuses (NUL) or which corrupt text downstream, and inputs may not
 * nest deeper than any real request needs.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deepest nesting of objects and arrays an input may have; the deepest real input has 2. */
export const MAX_INPUT_DEPTH = 8;

function problemWith(text: string): string | null {
  const control = CONTROL_CHARACTER.exec(text);
  if (control) return `contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}; remove it`;
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (invalid Unicode text)";
  return null;
}

/** Walks an input without recursion and refuses the first bad string or key, naming its parameter. */
export function assertSafeInput(input: unknown): void {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: input, path: "", depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    const where = path || "input";
    if (typeof value === "string") {
      const problem = problemWith(value);
      if (problem) throw new DomainError("INVALID_INPUT", `Invalid parameter ${where}: ${problem}`);
      continue;
    }
    if (value === null || typeof value !== "object" || value instanceof Date) continue;
    if (depth >= MAX_INPUT_DEPTH) throw new DomainError("INVALID_INPUT", `Invalid parameter ${where}: nested deeper than ${MAX_INPUT_DEPTH} levels`);
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = problemWith(key);
      if (keyProblem) throw new DomainError("INVALID_INPUT", `Invalid parameter name under ${where}: ${keyProblem}`);
      pending.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
}
