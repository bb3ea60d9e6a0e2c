import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import { createMailer, MailDeliveryError } from "./mailer";
import { parseMessage, startTestSmtpServer, type TestSmtpServer } from "./test-smtp-server";

const FROM = "Business Directory <no-reply@directory.example>";
const PASSWORD = "s3cr=t/pa ss";
// A sign-in link as the service sends it: "=" signs (quoted-printable's escape) and a line well past 76 characters.
const LINK = `https://directory.example/api/auth/magic-link/verify?token=${"Ab9_".repeat(30)}&callbackURL=%2Faccount%3Ftab%3Dkeys`;
const TEXT = `Hello,\n\nsign in with this link (valid 15 minutes):\n${LINK}\n\nIf you did not ask for it, ignore this mail.`;

let dataDir: string;
let logged: { fields: Record<string, unknown>; message: string }[];
const log = (fields: Record<string, unknown>, message: string) => logged.push({ fields, message });

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "mailer-test-"));
  logged = [];
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("the mailer through SMTP", () => {
  let smtp: TestSmtpServer;

  beforeEach(async () => {
    smtp = await startTestSmtpServer({ requireAuth: { user: "mailer@directory.example", pass: PASSWORD } });
  });

  afterEach(async () => {
    await smtp.close();
  });

  it("logs in with the URL's credentials and delivers from, to, subject and the text, a long link intact", async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, dataDir, log });
    try {
      expect(mailer.describe).toBe(`smtp://127.0.0.1:${new URL(smtp.url).port}`);
      await mailer.send({ to: "ada@example.org", subject: "Ihr Anmeldelink für das Verzeichnis", text: TEXT });
      const mail = await smtp.nextMail("ada@example.org");
      expect(mail.from).toBe("no-reply@directory.example");
      expect(mail.to).toEqual(["ada@example.org"]);
      expect(mail.subject).toBe("Ihr Anmeldelink für das Verzeichnis");
      expect(mail.text.trimEnd()).toBe(TEXT);
      // The link really was encoded on the way (else the decoding above proved nothing).
      expect(mail.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i);
      expect(mail.raw).not.toContain(LINK);
      expect(logged).toEqual([]);
    } finally {
      mailer.close();
    }
  });

  it("sends the HTML beside the text, and the text part still reads whole", async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, dataDir, log });
    try {
      await mailer.send({ to: "bob@example.org", subject: "Sign in", text: TEXT, html: `<p><a href="${LINK}">Sign in</a></p>` });
      const mail = await smtp.nextMail("bob@example.org");
      expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
      expect(mail.text.trimEnd()).toBe(TEXT);
    } finally {
      mailer.close();
    }
  });

  it("rejects a refused login with an error naming the server, never the password", async () => {
    const url = new URL(smtp.url);
    url.password = encodeURIComponent("wrong-Passw0rd");
    const mailer = createMailer({ smtpUrl: url.href, from: FROM, dataDir, log });
    try {
      const error = await mailer.send({ to: "ada@example.org", subject: "Sign in", text: TEXT }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect((error as MailDeliveryError).message).toContain(`smtp://127.0.0.1:${url.port}`);
      expect((error as MailDeliveryError).code).toBe("EAUTH");
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack })).not.toContain("wrong-Passw0rd");
      expect(smtp.messages).toEqual([]);
    } finally {
      mailer.close();
    }
  });
});

describe("the mailer without SMTP_URL", () => {
  it("writes each mail as a complete .eml file under DATA_DIR/mail, private to the service, and logs its name", async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, dataDir, log });
    const folder = path.join(dataDir, "mail");
    expect(mailer.describe).toBe(folder);
    await mailer.send({ to: "ada@example.org", subject: "Ihr Anmeldelink", text: TEXT });
    await mailer.send({ to: "bob@example.org", subject: "Second", text: "two" });
    mailer.close();

    const names = await readdir(folder);
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/);
    const [first] = names.sort();
    const file = path.join(folder, first!);
    expect(logged[0]).toEqual({ fields: { file }, message: "mail written to a file (SMTP_URL is unset)" });
    expect(logged).toHaveLength(2);

    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const raw = await readFile(file, "utf8");
    expect(raw).toMatch(/^To: ada@example\.org$/m);
    expect(raw).toMatch(/^From: Business Directory <no-reply@directory\.example>$/m);
    expect(raw).not.toContain("\r\n");
    const parsed = parseMessage(raw);
    expect(parsed.subject).toBe("Ihr Anmeldelink");
    expect(parsed.text.trimEnd()).toBe(TEXT);
  });
});

describe("an SMTP server that cannot take the mail", () => {
  it("rejects within seconds when nothing listens on the port, without the password in the error", async () => {
    const port = await freePort();
    const mailer = createMailer({ smtpUrl: `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`, from: FROM, dataDir, log });
    const started = Date.now();
    const error = await mailer.send({ to: "ada@example.org", subject: "Sign in", text: TEXT }).catch((caught: unknown) => caught);
    mailer.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toContain(`smtp://127.0.0.1:${port}`);
    expect((error as Error).message).not.toContain(PASSWORD);
    expect((error as Error).message).not.toContain(encodeURIComponent(PASSWORD));
  });

  it("gives up on a server that accepts the connection but never greets, in seconds rather than minutes", async () => {
    // Reads and drops what the client sends (a TLS hello), and never answers.
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = createMailer({ smtpUrl: `smtps://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`, from: FROM, dataDir, log });
    try {
      const started = Date.now();
      const error = await mailer.send({ to: "ada@example.org", subject: "Sign in", text: TEXT }).catch((caught: unknown) => caught);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect((error as Error).message).toContain(`smtps://127.0.0.1:${port}`);
      expect((error as Error).message).not.toContain(PASSWORD);
    } finally {
      mailer.close();
      await closeServer(silent);
    }
  }, 15_000);
});

describe("header injection", () => {
  const injected = [
    { to: "ada@example.org", subject: "Sign in\r\nBcc: eve@example.org" },
    { to: "ada@example.org", subject: "Sign in\nX-Extra: 1" },
    { to: "ada@example.org\r\nBcc: eve@example.org", subject: "Sign in" },
    { to: "ada@example.org\nBcc: eve@example.org", subject: "Sign in" },
    { to: "ada@example.org, eve@example.org", subject: "Sign in" },
    { to: "not an address", subject: "Sign in" },
  ];

  it("refuses a line break in the subject or the recipient before anything is written", async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, dataDir, log });
    for (const mail of injected) {
      await expect(mailer.send({ ...mail, text: "hello" })).rejects.toBeInstanceOf(DomainError);
    }
    await expect(readdir(path.join(dataDir, "mail"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(logged).toEqual([]);
  });

  it("refuses them before anything is sent through SMTP", async () => {
    const smtp = await startTestSmtpServer();
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, dataDir, log });
    try {
      for (const mail of injected) {
        await expect(mailer.send({ ...mail, text: "hello" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      }
      // The same server takes a clean mail, so the refusals above were the mailer's, not a dead server's.
      await mailer.send({ to: "ada@example.org", subject: "Sign in", text: "hello" });
      expect((await smtp.nextMail("ada@example.org")).subject).toBe("Sign in");
      expect(smtp.messages).toHaveLength(1);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await closeServer(probe);
  return port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
