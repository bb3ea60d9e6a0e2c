/*
 * How deep a JSON text nests, read without parsing it, and the refusal of one too deep: the input
 * gate (request-hygiene.ts) throws it and the body errors (body-errors.ts) answer it.
 */

/** Deepest JSON nesting a request body (or a tRPC `input` parameter) may have. */
export const MAX_JSON_DEPTH = 32;

export class TooDeepError extends Error {
  readonly status = 400;
  constructor(readonly where: string) {
    super(`${where} nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/** Scans JSON text for its nesting depth without parsing it: linear, no recursion. */
export function jsonDepthExceeds(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}
