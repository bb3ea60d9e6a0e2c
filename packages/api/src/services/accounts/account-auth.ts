import { AsyncLocalStorage } from "node:async_hooks";
import { APIError, type BetterAuthOptions } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { betterAuth } from "better-auth/minimal";
import { magicLink } from "better-auth/plugins/magic-link";
import { eq } from "drizzle-orm";
import { accountCredentials, accounts, accountSessions, signInTokens, type Db } from "@directory/db";
import { serviceSecret } from "../shared/service-secrets";
import { hashingSessionTokens } from "./session-token-hashing";

/*
 * Sign-in by email through the authentication library (better-auth and its magic-link plugin), on
 * our own tables. Only its server API is used, by services/accounts/sessions.ts: none of its HTTP
 * routes is mounted, so every door reaches it through our procedures and their guards.
 */

/** A sign-in link is valid this long, once. */
export const SIGN_IN_LINK_SECONDS = 15 * 60;
/** A session lasts this long, and is renewed once a day while it is used. */
const SESSION_SECONDS = 30 * 24 * 60 * 60;
const SESSION_RENEWAL_SECONDS = 24 * 60 * 60;
/** The link in the mail is PUBLIC_BASE_URL + this + /magic-link/verify; pages serve it (GET /sign-in/magic-link/verify). */
export const SIGN_IN_BASE_PATH = "/sign-in";

/** The session cookie is `<prefix>.session_token`, `__Secure-` before it on https (the library's naming). */
const COOKIE_PREFIX = "directory";
const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=([^;]+)`);

/** The session cookie's value in a Cookie header, or null: the same person whatever else the header carries. */
export function sessionCookieValue(cookieHeader: string | null): string | null {
  return cookieHeader ? (SESSION_COOKIE.exec(cookieHeader)?.[1] ?? null) : null;
}

/** Where the plugin hands over the link it made: the caller sends the mail itself, with its own mailer. */
const linkBeingMade = new AsyncLocalStorage<{ url?: string }>();

function createAccountAuth(db: Db, publicBaseUrl: string, secret: string) {
  return betterAuth({
    appName: "Business Directory",
    baseURL: publicBaseUrl,
    basePath: SIGN_IN_BASE_PATH,
    secret,
    database: (options: BetterAuthOptions) =>
      hashingSessionTokens(
        drizzleAdapter(db, {
          provider: "pg",
          schema: { user: accounts, session: accountSessions, account: accountCredentials, verification: signInTokens },
        })(options),
      ),
    advanced: {
      database: { generateId: "uuid" },
      useSecureCookies: publicBaseUrl.startsWith("https:"),
      cookiePrefix: COOKIE_PREFIX,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
    },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_RENEWAL_SECONDS },
    // Our procedures count sign-in mails in the shared database; the library's limiter is per process.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    databaseHooks: {
      session: {
        create: {
          // A disabled account gets no new session, whatever link it holds.
          before: async (session) => {
            const [row] = await db
              .select({ disabledAt: accounts.disabledAt })
              .from(accounts)
              .where(eq(accounts.id, String(session.userId)));
            if (!row || row.disabledAt) throw new APIError("FORBIDDEN", { message: "This account is disabled" });
          },
        },
      },
    },
    plugins: [
      magicLink({
        expiresIn: SIGN_IN_LINK_SECONDS,
        storeToken: "hashed",
        sendMagicLink: ({ url }) => {
          const slot = linkBeingMade.getStore();
          if (slot) slot.url = url;
        },
      }),
    ],
  });
}

export type AccountAuth = ReturnType<typeof createAccountAuth>;

const authByDatabase = new WeakMap<Db, Map<string, Promise<AccountAuth>>>();

/** The authentication library for a database and public address, made once (its secret is a service secret, shared by every instance). */
export function accountAuthFor(db: Db, publicBaseUrl: string): Promise<AccountAuth> {
  let byUrl = authByDatabase.get(db);
  if (!byUrl) authByDatabase.set(db, (byUrl = new Map()));
  let auth = byUrl.get(publicBaseUrl);
  if (!auth) {
    auth = serviceSecret(db, "account-sessions").then((secret) => createAccountAuth(db, publicBaseUrl, secret.toString("hex")));
    auth.catch(() => byUrl.delete(publicBaseUrl));
    byUrl.set(publicBaseUrl, auth);
  }
  return auth;
}

/** Runs the plugin's sign-in request and returns the link it made (never sent by the plugin). */
export async function makeSignInLink(auth: AccountAuth, email: string, callbackPath: string): Promise<string> {
  const slot: { url?: string } = {};
  await linkBeingMade.run(slot, () => auth.api.signInMagicLink({ body: { email, callbackURL: callbackPath }, headers: new Headers() }));
  if (!slot.url) throw new Error("the sign-in plugin made no link");
  return slot.url;
}
