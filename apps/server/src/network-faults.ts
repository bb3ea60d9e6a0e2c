import net from "node:net";

/** Network faults on loopback for the database fault tests: a refused port, a silent host, a proxy that fails on demand. */

function listen(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A loopback port with nothing listening on it: connections are refused. Port 1 (tcpmux) is never
 * served here and cannot be taken by an unprivileged test; a freed ephemeral port could be, by
 * another test file's server binding port 0 in the meantime.
 */
export async function refusedPort(): Promise<number> {
  const port = 1;
  const refused = await new Promise<boolean>((resolve) => {
    const probe = net.connect(port, "127.0.0.1");
    probe.once("connect", () => {
      probe.destroy();
      resolve(false);
    });
    probe.once("error", () => resolve(true));
  });
  if (!refused) throw new Error(`127.0.0.1:${port} accepts connections on this machine; the refused-database tests need a port nobody serves`);
  return port;
}

/** Accepts connections and never answers, like a host that has gone silent. */
export async function blackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const held = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    held.add(socket);
    socket.on("error", () => {});
  });
  const port = await listen(server);
  return {
    port,
    close: async () => {
      for (const socket of held) socket.destroy();
      await closeServer(server);
    },
  };
}

/**
 * A TCP proxy on loopback in front of PostgreSQL that can be stopped (connections refused, open ones
 * cut), started again on the same port, or made silent (open connections stop forwarding).
 */
export async function postgresProxy(target: URL) {
  const open = new Set<net.Socket>();
  let silent = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => open.delete(socket));
    }
    client.on("data", (chunk) => silent || upstream.write(chunk));
    upstream.on("data", (chunk) => silent || client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const port = await listen(server);
  return {
    url: (() => {
      const url = new URL(target);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    })(),
    stop: async () => {
      const closed = closeServer(server);
      for (const socket of open) socket.destroy();
      await closed;
    },
    start: () => listen(server, port),
    silence: (value: boolean) => {
      silent = value;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      if (server.listening) await closeServer(server);
    },
  };
}
