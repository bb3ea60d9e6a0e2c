import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message the test server received: the SMTP envelope, the raw message, and its subject and plain text decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:port, with the required user and password in it when auth is required. */
  url: string;
  /** Every message received, in order. */
  messages: ReceivedMail[];
  /** The oldest message to `to` not yet returned by nextMail, waiting for one up to timeoutMs (default 5 s). */
  nextMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

interface Waiter {
  to: string;
  resolve: (mail: ReceivedMail) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A real SMTP server on the loopback address for tests: plain text (no TLS), with AUTH PLAIN/LOGIN
 * only when requireAuth is given (then allowed without TLS, and any other credentials refused).
 */
export async function startTestSmtpServer(options: { requireAuth?: { user: string; pass: string } } = {}): Promise<TestSmtpServer> {
  const { requireAuth } = options;
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<Waiter>();

  const deliver = (mail: ReceivedMail) => {
    messages.push(mail);
    for (const waiter of waiters) {
      if (!taken.has(mail) && addressedTo(mail, waiter.to)) {
        taken.add(mail);
        waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve(mail);
      }
    }
  };

  const server = new SMTPServer({
    secure: false,
    disabledCommands: requireAuth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !requireAuth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (requireAuth && auth.username === requireAuth.user && auth.password === requireAuth.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mailFrom = session.envelope.mailFrom;
        deliver({
          from: mailFrom ? mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          ...parseMessage(raw),
        });
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials = requireAuth ? `${encodeURIComponent(requireAuth.user)}:${encodeURIComponent(requireAuth.pass)}@` : "";

  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    messages,
    nextMail(to, timeoutMs = 5_000) {
      const waiting = messages.find((mail) => !taken.has(mail) && addressedTo(mail, to));
      if (waiting) {
        taken.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter: Waiter = {
          to,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(new Error(`no mail to ${to} within ${timeoutMs} ms (${messages.length} received)`));
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    async close() {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`the test SMTP server closed before a mail to ${waiter.to} came`));
      }
      waiters.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function addressedTo(mail: ReceivedMail, to: string): boolean {
  return mail.to.some((recipient) => recipient.toLowerCase() === to.toLowerCase());
}

/**
 * The subject and the plain text of a message as nodemailer writes it: a text/plain body, or the
 * first text/plain part of a multipart (alternative, mixed...); 7bit, quoted-printable or base64,
 * UTF-8. Enough for what the service sends, not a general MIME parser.
 */
export function parseMessage(raw: string): { subject: string; text: string } {
  const { headers, body } = splitEntity(raw);
  return { subject: decodeEncodedWords(headers.get("subject") ?? ""), text: plainTextOf(headers, body) ?? "" };
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  const head = match ? entity.slice(0, match.index) : entity;
  const body = match ? entity.slice(match.index + match[0].length) : "";
  const headers = new Map<string, string>();
  // A line starting with white space continues the header before it (RFC 5322 folding).
  for (const line of head.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon > 0 && !headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function plainTextOf(headers: Map<string, string>, body: string): string | undefined {
  const contentType = headers.get("content-type") ?? "text/plain";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return undefined;
    // Parts lie between "--boundary" lines; the preamble before the first and the epilogue after "--boundary--" are skipped.
    const parts = body.split(new RegExp(`^--${escapeRegExp(boundary)}(?:--)?[ \\t]*\\r?$\\n?`, "m")).slice(1, -1);
    for (const part of parts) {
      const entity = splitEntity(part.replace(/\r?\n$/, ""));
      const text = plainTextOf(entity.headers, entity.body);
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (mediaType !== "text/plain") return undefined;
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  return decodeBody(body, encoding).replace(/\r\n/g, "\n");
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return body;
}

/** Soft line breaks ("=" at a line's end) join lines; "=XX" is one byte; bytes are read as UTF-8 at the end. */
function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const hex = joined.slice(index + 1, index + 3);
    if (joined[index] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(joined[index]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=); white space between two adjacent words is dropped. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_word, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
