import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTransport } from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import { DomainError } from "../../errors";
import type { Mailer, OutgoingMail } from "./mailer.types";

export interface MailerOptions {
  /** SMTP_URL (smtp:// or smtps://, credentials in it); unset: mail is written as .eml files. */
  smtpUrl?: string | undefined;
  /** MAIL_FROM: the From of every mail. */
  from: string;
  /** DATA_DIR: the files go to <dataDir>/mail when smtpUrl is unset. */
  dataDir: string;
  log: (fields: Record<string, unknown>, message: string) => void;
}

export type ServiceMailer = Mailer & {
  /** Ends the SMTP transport's connections (nothing to end for files). */
  close(): void;
  /** Where mail goes, for the startup log: "smtp://host:port" (never the credentials), or the folder. */
  describe: string;
};

/**
 * An SMTP send that failed. Its message names the server (host and port) so an operator can act
 * on the log, but never the credentials; it is no DomainError on purpose: its message is for the
 * log, not for a client.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    /** nodemailer's code (ECONNECTION, ETIMEDOUT, EAUTH, EENVELOPE...), when it gave one. */
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "MailDeliveryError";
  }
}

/**
 * A dead or silent SMTP server must fail a request in seconds, not after nodemailer's defaults
 * (2 minutes to connect, 30 s for the greeting, 10 minutes of silence).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000, dnsTimeout: 5_000 };

const FILE_LOG_MESSAGE = "mail written to a file (SMTP_URL is unset)";

/** The mailer the service sends through: SMTP when smtpUrl is set, else .eml files under <dataDir>/mail. */
export function createMailer(options: MailerOptions): ServiceMailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : fileMailer(options);
}

function smtpMailer(smtpUrl: string, from: string): ServiceMailer {
  const server = smtpServerOf(smtpUrl);
  // Options after `url` in nodemailer's merge lose to the URL's own query, so an operator may still tune them there.
  const transport = createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    describe: server.address,
    async send(mail) {
      assertSafeHeaders(mail);
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } catch (error) {
        const reason = scrubSecrets(error instanceof Error ? error.message : String(error), server.secrets);
        const code = (error as { code?: unknown }).code;
        // No `cause`: nodemailer's error carries the server's response and command, which a logger would print whole.
        throw new MailDeliveryError(`mail could not be sent through ${server.address}: ${reason}`, typeof code === "string" ? code : undefined);
      }
    },
    close() {
      transport.close();
    },
  };
}

function fileMailer(options: MailerOptions): ServiceMailer {
  const folder = path.join(path.resolve(options.dataDir), "mail");
  // nodemailer renders the same complete message it would send (headers, MIME parts, encodings).
  const renderer = createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    describe: folder,
    async send(mail) {
      assertSafeHeaders(mail);
      const info = await renderer.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      if (!Buffer.isBuffer(info.message)) throw new Error("nodemailer's buffer transport returned no buffer");
      const file = await writeMailFile(folder, info.message);
      options.log({ file }, FILE_LOG_MESSAGE);
    },
    close() {
      renderer.close();
    },
  };
}

/**
 * Writes one message as <folder>/<UTC timestamp>-<random>.eml: sortable by name, readable by the
 * service's user only (a sign-in link is a credential). A temporary name first, renamed once
 * complete, so a reader listing *.eml never sees half a message.
 */
async function writeMailFile(folder: string, message: Buffer): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[-:.]/g, "");
  const name = `${stamp}-${randomBytes(4).toString("hex")}.eml`;
  const file = path.join(folder, name);
  const temporary = path.join(folder, `.${name}.tmp`);
  try {
    await writeFile(temporary, message, { mode: 0o600, flag: "wx" });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

/**
 * nodemailer folds a line break out of a subject, but reads one in an address as a group and
 * sends to what follows it ("a@b.c\r\nBcc: x@y.z" goes to x@y.z alone): refuse both outright,
 * and any recipient field that is not exactly one address.
 */
function assertSafeHeaders(mail: OutgoingMail): void {
  if (/[\r\n\0]/.test(mail.subject)) {
    throw new DomainError("INVALID_INPUT", "A mail subject must not contain line breaks");
  }
  if (/[\r\n\0]/.test(mail.to)) {
    throw new DomainError("INVALID_INPUT", "A mail recipient must not contain line breaks");
  }
  const recipients = addressparser(mail.to, { flatten: false });
  const only = recipients.length === 1 ? recipients[0] : undefined;
  if (!only?.address?.includes("@")) {
    throw new DomainError("INVALID_INPUT", "A mail recipient must be exactly one email address");
  }
}

/** The server as "smtp://host:port" (nodemailer's default port when the URL has none), and the secrets to keep out of messages. */
function smtpServerOf(smtpUrl: string): { address: string; secrets: string[] } {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const port = url.port || (secure ? "465" : "587");
  const password = safeDecode(url.password);
  const user = safeDecode(url.username);
  const secrets = password
    ? [
        url.password,
        password,
        // An SMTP reply may echo what the client sent: AUTH LOGIN sends the password in base64, AUTH PLAIN "\0user\0password".
        Buffer.from(password).toString("base64"),
        Buffer.from(`\u0000${user}\u0000${password}`).toString("base64"),
      ]
    : [];
  return { address: `${url.protocol}//${url.hostname}:${port}`, secrets };
}

function safeDecode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}

function scrubSecrets(text: string, secrets: string[]): string {
  return secrets.reduce((scrubbed, secret) => scrubbed.split(secret).join("***"), text);
}
