import { existsSync } from "node:fs";
import net from "node:net";

/*
 * What the tests' own servers beside the database (a streaming replica: replicas/streaming-cluster.ts;
 * a PgBouncer: testing-pgbouncer.ts) share: a free loopback port, and PostgreSQL's tools run as the
 * `postgres` OS user, since they refuse to run as root.
 */

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Debian installs pgbouncer and runuser in /usr/sbin, which a PATH may lack. */
export function systemProgram(name: string): string {
  return existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : name;
}

/** The command and arguments that run program as the postgres OS user: through runuser under root, as it is otherwise. */
export function asPostgresUser(program: string, args: string[]): [command: string, args: string[]] {
  return process.getuid?.() === 0 ? [systemProgram("runuser"), ["-u", "postgres", "--", program, ...args]] : [program, args];
}
