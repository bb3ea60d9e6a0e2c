import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asPostgresUser, freeLoopbackPort, systemProgram } from "./test-processes";

/**
 * A real PgBouncer (Debian's `pgbouncer`, 1.18 on these machines) in transaction mode on a free
 * loopback port, in front of one PostgreSQL database, for the test and the bench that run the
 * service behind a pooler (docs/operations.md, "Behind a connection pooler"). The database must
 * trust its user from 127.0.0.1, as the test server does. PgBouncer refuses to run as root: as root,
 * it runs as the `postgres` OS user.
 */
export interface PgBouncer {
  /** The database through the pooler, as DATABASE_URL names it. */
  url: string;
  /** What PgBouncer has logged so far (its refusals name the startup parameter or statement). */
  output(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections for the database: few, so that clients really share them. */
  poolSize: number;
  /** The statement_timeout each server connection gets from connect_query; 0: none. */
  statementTimeoutMs: number;
}

/** The pgbouncer.ini lines docs/operations.md lists, for one database. */
function configuration(target: URL, options: PgBouncerOptions & { port: number; authFile: string }): string {
  const database = decodeURIComponent(target.pathname.slice(1));
  const timeout = options.statementTimeoutMs > 0 ? ` connect_query='SET statement_timeout = ${options.statementTimeoutMs}'` : "";
  return [
    "[databases]",
    `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} pool_size=${options.poolSize}${timeout}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${options.port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${options.authFile}`,
    "pool_mode = transaction",
    "max_client_conn = 200",
    `default_pool_size = ${options.poolSize}`,
    "",
  ].join("\n");
}

/** Starts PgBouncer in front of directUrl's database; resolves once it listens. */
export async function startPgBouncer(directUrl: string, options: PgBouncerOptions): Promise<PgBouncer> {
  const target = new URL(directUrl);
  const user = decodeURIComponent(target.username) || "postgres";
  const port = await freeLoopbackPort();
  // Readable by the postgres OS user PgBouncer runs as.
  const dir = mkdtempSync(path.join(tmpdir(), "directory-pgbouncer-"));
  chmodSync(dir, 0o755);
  const authFile = path.join(dir, "users.txt");
  writeFileSync(authFile, `"${user}" ""\n`, { mode: 0o644 });
  const iniFile = path.join(dir, "pgbouncer.ini");
  writeFileSync(iniFile, configuration(target, { ...options, port, authFile }), { mode: 0o644 });

  const [command, args] = asPostgresUser(systemProgram("pgbouncer"), [iniFile]);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", (error) => {
      output += `${error.message} (is Debian's pgbouncer installed? apt-get install pgbouncer)\n`;
      resolve(null);
    });
  });
  const listening = new Promise<boolean>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("process up")) resolve(true);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
  });
  const up = await Promise.race([listening, exited.then(() => false), new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000))]);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  if (!up) {
    await stop();
    throw new Error(`PgBouncer did not start:\n${output}`);
  }
  const url = new URL(directUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.toString(), output: () => output, stop };
}
