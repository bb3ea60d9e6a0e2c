import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createMailer } from "../../services/mail/mailer";
import type { TestSmtpServer } from "../../services/mail/test-smtp-server";
import type { TestDatabase } from "../../testing";

/** What one simulated browser holds: its cookies, and the headers the last answer set. */
export interface Browser {
  cookies: Map<string, string>;
  setCookies: string[];
}

export const PUBLIC_BASE_URL = "http://directory.test";

export function newBrowser(): Browser {
  return { cookies: new Map(), setCookies: [] };
}

function keep(browser: Browser, setCookies: string[]): void {
  browser.setCookies = setCookies;
  for (const cookie of setCookies) {
    const [pair = "", ...attributes] = cookie.split(";");
    const [name = "", value = ""] = pair.split("=", 2).map((part) => part.trim());
    const expired = attributes.some((attribute) => /max-age=0\b/i.test(attribute.trim())) || value === "";
    if (expired) browser.cookies.delete(name);
    else browser.cookies.set(name, value);
  }
}

/** A tRPC caller as a browser on the service's pages would make it: its cookies, the service's Origin, and a CSRF token when given. */
export function accountCaller(
  database: TestDatabase,
  smtp: TestSmtpServer,
  browser: Browser,
  options: { csrfToken?: string; origin?: string | null; ip?: string; publicBaseUrl?: string } = {},
) {
  return createCaller(
    createContext({
      db: database.db,
      publicBaseUrl: options.publicBaseUrl ?? PUBLIC_BASE_URL,
      cookieHeader: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ") || undefined,
      requestOrigin: options.origin === null ? undefined : (options.origin ?? PUBLIC_BASE_URL),
      csrfToken: options.csrfToken,
      clientIp: options.ip ?? "192.0.2.10",
      userAgent: "account-tests",
      setHeader: (name, value) => {
        if (name.toLowerCase() === "set-cookie") keep(browser, Array.isArray(value) ? value : [value]);
      },
      mailer: createMailer({ smtpUrl: smtp.url, from: "Directory <no-reply@directory.test>", dataDir: "/nonexistent", log: () => {} }),
    }),
  );
}

/** The token of the sign-in link in a mail's text. */
export function signInTokenOf(text: string): string {
  const link = /https?:\/\/\S+\/sign-in\/magic-link\/verify\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no sign-in link in: ${text}`);
  return new URL(link).searchParams.get("token")!;
}

/** Signs a browser in through a real mail: asks for the link, reads it from the SMTP server, opens it. Returns the CSRF token. */
export async function signIn(database: TestDatabase, smtp: TestSmtpServer, browser: Browser, email: string): Promise<string> {
  await accountCaller(database, smtp, browser).account.signIn.request({ email });
  const mail = await smtp.nextMail(email);
  await accountCaller(database, smtp, browser, { origin: null }).account.signIn.complete({ token: signInTokenOf(mail.text) });
  return (await accountCaller(database, smtp, browser).account.me()).csrfToken;
}
