import http from "node:http";
import https from "node:https";
import { DomainError } from "../../errors";
import { ADDRESS_BLOCKED_CODE, checkWebhookUrl, guardedLookup, type OutboundPolicy, type Resolver } from "../webhooks/outbound-address";

/*
 * Fetching a page of a listing's website to verify a claim of ownership. The website is written by
 * registries and owners, so it is user-supplied like a webhook URL and goes through the same
 * outbound rules: every hop's URL is judged (IP literals never reach a lookup), every connection
 * goes through guardedLookup (a name that rebinds to a private address is never reached), and
 * redirects are followed only within the site, a few at most, each judged again. Time and the bytes
 * read are capped, so a slow or endless site costs us a bounded amount.
 */

export interface SiteFetchLimits {
  /** The whole fetch of one document, redirects included. */
  timeoutMs: number;
  /** What is read of the body; the rest is never read. */
  maxBytes: number;
  maxRedirects: number;
}

export const SITE_FETCH_LIMITS: SiteFetchLimits = { timeoutMs: 5_000, maxBytes: 256 * 1024, maxRedirects: 3 };

export interface SiteFetchOptions {
  policy: OutboundPolicy;
  /** Tests: a fake DNS for guardedLookup; dns.lookup otherwise. */
  resolve?: Resolver;
  limits?: SiteFetchLimits;
}

/** A document read (its first maxBytes), or why none was: said to the person in the claim's refusal. */
export type SiteFetchResult = { ok: true; url: string; status: number; body: string } | { ok: false; url: string; problem: string };

const USER_AGENT = "BusinessDirectoryVerifier/1.0 (claim of ownership)";

/** Thrown for a destination the outbound rules refuse: the claim is refused as a whole (not a missing token). */
function notPublic(url: URL, redirected: boolean): DomainError {
  const what = redirected ? `The listing's website redirected to ${url.origin}, which` : `The listing's website (${url.origin})`;
  return new DomainError("FORBIDDEN", `${what} is not a public address: the service does not fetch it`);
}

/**
 * The same site: the same origin, or the same host upgraded from http to https, or with "www."
 * added or removed (default ports only). Sites commonly redirect so; anything else is another
 * site's content, which proves nothing about this one.
 */
export function isSameSite(from: URL, to: URL): boolean {
  if (from.origin === to.origin) return true;
  const bare = (host: string) => host.replace(/^www\./, "");
  if (bare(from.hostname) !== bare(to.hostname) || from.port !== "" || to.port !== "") return false;
  return to.protocol === from.protocol || (from.protocol === "http:" && to.protocol === "https:");
}

/** Judges a hop's URL by the outbound rules (IP literals and localhost names are never looked up). */
function assertAllowed(url: URL, policy: OutboundPolicy, redirected: boolean): void {
  try {
    checkWebhookUrl(url.href, policy);
  } catch (error) {
    if (error instanceof DomainError) throw notPublic(url, redirected);
    throw error;
  }
}

type Hop = { kind: "body"; status: number; body: string } | { kind: "redirect"; location: string } | { kind: "problem"; problem: string };

/** One GET, no redirect followed: the body (capped), the redirect's target, or what went wrong. */
function getOnce(url: URL, options: SiteFetchOptions, limits: SiteFetchLimits, signal: AbortSignal): Promise<Hop> {
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: "GET",
        headers: { accept: "text/html, text/plain;q=0.9, */*;q=0.1", "accept-encoding": "identity", "user-agent": USER_AGENT },
        lookup: guardedLookup(options.policy, options.resolve),
        agent: false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.destroy();
          resolve({ kind: "redirect", location });
          return;
        }
        if (status < 200 || status >= 300) {
          response.destroy();
          resolve({ kind: "problem", problem: `answered HTTP ${status}` });
          return;
        }
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => resolve({ kind: "body", status, body: Buffer.concat(chunks).toString("utf8") });
        response.on("data", (chunk: Buffer) => {
          if (read >= limits.maxBytes) return;
          chunks.push(chunk.subarray(0, limits.maxBytes - read));
          read += chunk.length;
          // Enough read: the rest of an endless body is never asked for.
          if (read >= limits.maxBytes) {
            response.destroy();
            done();
          }
        });
        // A body cut short by the deadline is no answer; one the site cut short is what it sent.
        const ended = () => (signal.aborted ? reject(new Error("aborted")) : done());
        response.on("end", done);
        response.on("error", ended);
        response.on("close", ended);
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === ADDRESS_BLOCKED_CODE) reject(notPublic(url, false));
      else if (signal.aborted) reject(error);
      else resolve({ kind: "problem", problem: `could not be reached (${error.code ?? error.message})` });
    });
    request.end();
  });
}

/**
 * GETs a document of a listing's website within the limits. Resolves with the body or a problem
 * to tell the person; rejects with DomainError FORBIDDEN when the outbound rules refuse a hop.
 */
export async function fetchSiteDocument(start: URL, options: SiteFetchOptions): Promise<SiteFetchResult> {
  const limits = options.limits ?? SITE_FETCH_LIMITS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  let url = start;
  try {
    for (let redirects = 0; ; redirects++) {
      assertAllowed(url, options.policy, url !== start);
      let hop: Hop;
      try {
        hop = await getOnce(url, options, limits, controller.signal);
      } catch (error) {
        if (error instanceof DomainError) throw url === start ? error : notPublic(url, true);
        if (controller.signal.aborted) return { ok: false, url: url.href, problem: `did not answer within ${limits.timeoutMs / 1000} seconds` };
        throw error;
      }
      if (hop.kind === "body") return { ok: true, url: url.href, status: hop.status, body: hop.body };
      if (hop.kind === "problem") return { ok: false, url: url.href, problem: hop.problem };
      let next: URL;
      try {
        next = new URL(hop.location, url);
      } catch {
        return { ok: false, url: url.href, problem: "redirected to an address that is not a URL" };
      }
      // A target the rules refuse is named as such, wherever it is; another site is not followed.
      assertAllowed(next, options.policy, true);
      if (!isSameSite(url, next)) {
        return { ok: false, url: url.href, problem: `redirected to another site (${next.origin}); only redirects within the site are followed` };
      }
      if (redirects >= limits.maxRedirects) return { ok: false, url: url.href, problem: `redirected more than ${limits.maxRedirects} times` };
      url = next;
    }
  } finally {
    clearTimeout(timer);
  }
}
