import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/*
 * The website proof's token: where it is put, how it is found, and how a found one is compared.
 * Only a hash of a token is stored, so the claims table never holds a token a reader could place
 * on a site; a token is random (192 bits), so none is guessed, and each is one person's for one
 * listing, so a token placed for another claim matches nothing here.
 */

export const VERIFICATION_META_NAME = "business-directory-verification";
export const WELL_KNOWN_PATH = "/.well-known/business-directory-verification.txt";

const TOKEN_PREFIX = "bdv_";
const TOKEN_BYTES = 24;
/** A found string longer than this is no token of ours: it is not hashed. */
const MAX_TOKEN_LENGTH = 100;
/** A page's head holds a few meta tags; a page with thousands is read only this far. */
const MAX_META_TAGS = 500;
/** The well-known file may list several tokens (several listings or people on one site), one per line. */
const MAX_FILE_LINES = 50;

export function newWebsiteToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString("base64url")}`;
}

export function hashWebsiteToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The tag the person puts in their home page's head. */
export function verificationMetaTag(token: string): string {
  return `<meta name="${VERIFICATION_META_NAME}" content="${token}">`;
}

/** Whether any candidate is the token whose hash is stored, compared in constant time per candidate. */
export function matchesStoredToken(candidates: readonly string[], storedHash: string): boolean {
  const stored = Buffer.from(storedHash, "hex");
  let found = false;
  for (const candidate of candidates) {
    if (candidate.length === 0 || candidate.length > MAX_TOKEN_LENGTH) continue;
    const hash = Buffer.from(hashWebsiteToken(candidate), "hex");
    if (hash.length === stored.length && timingSafeEqual(hash, stored)) found = true;
  }
  return found;
}

/** An attribute, its value quoted with " or ', or unquoted; names in any case. */
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * The attribute text of each <meta> tag, scanned by hand in one pass: a quoted value may hold ">",
 * and a page with an unclosed quote costs one scan to its end, not one per tag (as a regular
 * expression's backtracking could).
 */
function metaTagAttributes(head: string): string[] {
  const lower = head.toLowerCase();
  const tags: string[] = [];
  let from = 0;
  while (tags.length < MAX_META_TAGS) {
    const at = lower.indexOf("<meta", from);
    if (at === -1) break;
    const start = at + "<meta".length;
    if (start < head.length && !/[\s/>]/.test(head.charAt(start))) {
      from = start;
      continue;
    }
    let quote = "";
    let end = start;
    for (; end < head.length; end++) {
      const char = head.charAt(end);
      if (quote !== "") {
        if (char === quote) quote = "";
      } else if (char === '"' || char === "'") quote = char;
      else if (char === ">") break;
    }
    tags.push(head.slice(start, end));
    from = end + 1;
  }
  return tags;
}

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    // The first of a repeated attribute counts, as in a browser.
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/**
 * The verification tokens in a page's meta tags. Only the head counts (up to <body> or </head>),
 * outside comments: text a visitor can post to the body of a site (a comment, a review) proves
 * nothing about who runs it.
 */
export function metaTokensIn(html: string): string[] {
  const bodyAt = html.search(/<body[\s>]|<\/head\s*>/i);
  const head = (bodyAt === -1 ? html : html.slice(0, bodyAt)).replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  const tokens: string[] = [];
  for (const tag of metaTagAttributes(head)) {
    const attributes = attributesOf(tag);
    if (attributes.get("name")?.trim().toLowerCase() !== VERIFICATION_META_NAME) continue;
    const content = attributes.get("content")?.trim();
    if (content) tokens.push(content);
  }
  return tokens;
}

/** The tokens in the well-known file: its trimmed text, or each of its lines when it lists several. */
export function fileTokensIn(text: string): string[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .slice(0, MAX_FILE_LINES)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return lines;
}
