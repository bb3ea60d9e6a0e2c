import { createHmac, timingSafeEqual } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { accounts, accountSessions, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { Mailer } from "../mail/mailer.types";
import { serviceSecret } from "../shared/service-secrets";
import { accountAuthFor, makeSignInLink, SIGN_IN_LINK_SECONDS } from "./account-auth";
import { normalizeEmail } from "./email-address";

/** Where a person lands once signed in. */
export const SIGNED_IN_HOME = "/dashboard";
/** A person sees at most this many of their sessions (newest first). */
export const SESSIONS_LISTED_MAX = 50;

export interface SessionRequest {
  publicBaseUrl: string;
  /** The request's Cookie header, as the browser sent it. */
  cookieHeader: string | null;
}

export interface SignedInSession {
  account: { id: string; email: string };
  sessionId: string;
  /** Cookies the library renews while the session is used; the door sets them on its response. */
  setCookies: string[];
}

function requestHeaders(values: Record<string, string | null | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(values)) if (value) headers.set(name, value);
  return headers;
}

/**
 * Mails a one-time sign-in link to an address. The answer is the same whether or not the address has
 * an account (the account is made when the link is first used), so nobody learns who is signed up.
 */
export async function requestSignIn(db: Db, params: { email: string; publicBaseUrl: string; mailer: Mailer }): Promise<void> {
  const email = normalizeEmail(params.email);
  const auth = await accountAuthFor(db, params.publicBaseUrl);
  const link = await makeSignInLink(auth, email, SIGNED_IN_HOME);
  const minutes = SIGN_IN_LINK_SECONDS / 60;
  await params.mailer.send({
    to: email,
    subject: "Your sign-in link for the Business Directory",
    text: [
      "Open this link to sign in to the Business Directory:",
      "",
      link,
      "",
      `It works once, within ${minutes} minutes. If you did not ask for it, ignore this mail: nothing happens without the link.`,
    ].join("\n"),
  });
}

/** Opens the link's session; refused when the link is unknown, used, expired, or its account disabled. */
export async function completeSignIn(
  db: Db,
  params: { token: string; publicBaseUrl: string; clientIp: string | null; userAgent: string | null },
): Promise<{ setCookies: string[] }> {
  const auth = await accountAuthFor(db, params.publicBaseUrl);
  const refused = new DomainError("UNAUTHORIZED", "This sign-in link is unknown, already used or expired: ask for a new one at /sign-in");
  let response: Response;
  try {
    response = await auth.api.magicLinkVerify({
      query: { token: params.token, callbackURL: SIGNED_IN_HOME },
      headers: requestHeaders({ "user-agent": params.userAgent?.slice(0, 300), "x-forwarded-for": params.clientIp }),
      asResponse: true,
    });
  } catch {
    throw refused;
  }
  const location = response.headers.get("location") ?? "";
  const setCookies = response.headers.getSetCookie();
  if (location.includes("error=") || setCookies.length === 0) throw refused;
  return { setCookies };
}

/** The session a request's cookie holds, or null (no cookie, a forged or expired one, a disabled account). */
export async function resolveSession(db: Db, params: SessionRequest): Promise<SignedInSession | null> {
  if (!params.cookieHeader) return null;
  const auth = await accountAuthFor(db, params.publicBaseUrl);
  const { headers, response } = await auth.api.getSession({ headers: requestHeaders({ cookie: params.cookieHeader }), returnHeaders: true });
  if (!response) return null;
  const [account] = await db
    .select({ id: accounts.id, email: accounts.email, disabledAt: accounts.disabledAt })
    .from(accounts)
    .where(eq(accounts.id, response.user.id));
  if (!account || account.disabledAt) return null;
  return { account: { id: account.id, email: account.email }, sessionId: response.session.id, setCookies: headers.getSetCookie() };
}

/** Ends the request's session; returns the cookies that clear it in the browser. */
export async function signOut(db: Db, params: SessionRequest): Promise<{ setCookies: string[] }> {
  const auth = await accountAuthFor(db, params.publicBaseUrl);
  const response = await auth.api.signOut({ headers: requestHeaders({ cookie: params.cookieHeader }), asResponse: true });
  return { setCookies: response.headers.getSetCookie() };
}

export interface SessionSummary {
  id: string;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  userAgent: string | null;
  current: boolean;
}

/** An account's own sessions, newest first, bounded. */
export async function listSessions(db: Db, accountId: string, currentSessionId: string): Promise<SessionSummary[]> {
  const rows = await db
    .select()
    .from(accountSessions)
    .where(eq(accountSessions.userId, accountId))
    .orderBy(desc(accountSessions.updatedAt), desc(accountSessions.id))
    .limit(SESSIONS_LISTED_MAX);
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastActiveAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    userAgent: row.userAgent || null,
    current: row.id === currentSessionId,
  }));
}

/** Ends one of the account's sessions; another account's session id is "not found", never ended. */
export async function endSession(db: Db, accountId: string, sessionId: string): Promise<void> {
  const ended = await db
    .delete(accountSessions)
    .where(and(eq(accountSessions.id, sessionId), eq(accountSessions.userId, accountId)))
    .returning({ id: accountSessions.id });
  if (ended.length === 0) throw new DomainError("NOT_FOUND", `No session ${sessionId} of yours`);
}

/** The CSRF token of a session: an HMAC of its id, so it needs no storage and cannot be guessed. */
export async function csrfTokenFor(db: Db, sessionId: string): Promise<string> {
  return createHmac("sha256", await serviceSecret(db, "csrf-tokens"))
    .update(`csrf:${sessionId}`)
    .digest("base64url");
}

export async function isCsrfTokenValid(db: Db, sessionId: string, presented: string | null): Promise<boolean> {
  if (!presented) return false;
  const expected = Buffer.from(await csrfTokenFor(db, sessionId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
