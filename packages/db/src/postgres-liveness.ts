import net from "node:net";
import { Duplex } from "node:stream";

/**
 * Sockets for the postgres driver that notice a dead server in bounded time. postgres-js has a
 * connect timeout but no query timeout: a query sent into a connection that never answers (server
 * host gone, network black hole) waits until TCP gives up, about 15 minutes on Linux. So:
 * - a new connection that hears nothing from the server within `connectTimeoutMs` is dropped;
 * - a connection that sent something and has heard nothing back for `answerTimeoutMs` is dropped,
 *   with every other connection silent that long (they lead to the same server). A live server
 *   answers within its statement_timeout, so answerTimeoutMs must exceed it;
 * - after either, or a refused connection, the server counts as unreachable: new connections fail
 *   at once, except one attempt per `retryIntervalMs`, so queued queries do not each wait out a
 *   timeout, and the pool recovers by itself as soon as an attempt is answered.
 */
export interface LivenessOptions {
  /** 0 turns the connect check off. */
  connectTimeoutMs: number;
  /** 0 turns the answer check off (no statement timeout bounds a live server's answer). */
  answerTimeoutMs: number;
  retryIntervalMs: number;
}

/** The part of postgres-js's parsed options a socket needs. */
interface SocketTarget {
  host: string[];
  port: number[];
  path: string | false;
}

export interface LivenessGuard {
  /** The postgres-js `socket` option. */
  socket(target: SocketTarget): Duplex;
  close(): void;
}

const CHECK_INTERVAL_MS = 250;

function failure(code: string, message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code });
}

/**
 * A TCP connection seen through a Duplex, so every write and read is seen in order; postgres-js
 * layers TLS on top of the socket it is given, so this holds under TLS too.
 */
class WatchedSocket extends Duplex {
  lastReadAt = performance.now();
  /** When this connection sent something the server has not answered yet; null when not waiting. */
  awaitingSince: number | null = null;

  constructor(private readonly raw: net.Socket) {
    super();
    raw.on("data", (chunk: Buffer) => {
      this.lastReadAt = performance.now();
      this.awaitingSince = null;
      if (!this.push(chunk)) raw.pause();
    });
    // One code for every socket error, so the API tells a database outage from other network errors.
    raw.on("error", (error) => this.fail(failure("CONNECTION_FAILED", `The database connection failed: ${error.message}`, error)));
    raw.on("end", () => this.fail());
    raw.on("close", () => this.fail());
  }

  /**
   * Closes once postgres-js's batched write (sent on setImmediate) has gone out: postgres-js 3.4.9
   * never flushes a connection again whose socket closed while such a write was pending.
   */
  fail(error?: Error): void {
    setImmediate(() => this.destroy(error));
  }

  /** postgres-js reads this to decide whether to say goodbye before closing. */
  get readyState(): string {
    return this.raw.readyState;
  }

  setKeepAlive(enable?: boolean, initialDelay?: number): this {
    this.raw.setKeepAlive(enable, initialDelay);
    return this;
  }

  override _read(): void {
    this.raw.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // A write racing the close is dropped; the close that follows fails the query.
    if (this.raw.destroyed) return callback();
    this.awaitingSince ??= performance.now();
    this.raw.write(chunk, encoding, callback);
  }

  override _final(callback: () => void): void {
    this.raw.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.raw.destroy();
    callback(error);
  }
}

export function createLivenessGuard(options: LivenessOptions): LivenessGuard {
  const open = new Set<WatchedSocket>();
  let unreachable: Error | null = null;
  let nextAttemptAt = 0;
  let attempts = 0;

  const markUnreachable = (cause: Error) => {
    unreachable = cause;
    nextAttemptAt = performance.now() + options.retryIntervalMs;
  };

  const checkAnswers = () => {
    const now = performance.now();
    const stuck = [...open].some((socket) => socket.awaitingSince !== null && now - socket.awaitingSince >= options.answerTimeoutMs);
    if (!stuck) return;
    const error = failure("QUERY_TIMEOUT", `The database did not answer within ${options.answerTimeoutMs} ms`);
    markUnreachable(error);
    for (const socket of open) {
      if (now - socket.lastReadAt >= options.answerTimeoutMs) socket.fail(error);
    }
  };
  const checker = options.answerTimeoutMs > 0 ? setInterval(checkAnswers, CHECK_INTERVAL_MS).unref() : undefined;

  return {
    socket(target) {
      if (unreachable && performance.now() < nextAttemptAt) {
        // Fails like a refused connection, so postgres-js rejects the query and frees the slot. It
        // fails on the first write: failing earlier leaves postgres-js with a pending write that
        // it never flushes on the connection's next attempt.
        const error = failure(
          "DATABASE_UNREACHABLE",
          `The database is unreachable (${unreachable.message}); the next connection attempt is within ${options.retryIntervalMs} ms`,
          unreachable,
        );
        return new Duplex({ read() {}, write: (_chunk, _encoding, callback) => callback(error) });
      }
      // While unreachable, this attempt is the probe: the others fail at once until the next interval.
      if (unreachable) nextAttemptAt = performance.now() + options.retryIntervalMs;
      const index = attempts++ % target.host.length;
      const host = target.host[index] ?? "localhost";
      const port = target.port[index] ?? target.port[0] ?? 5432;
      const raw = target.path ? net.connect(target.path) : net.connect(port, host);
      // Listeners added before the socket is handed over run first: the state is current before
      // postgres-js passes the error on to the query.
      raw.once("data", () => {
        clearTimeout(connectTimer);
        unreachable = null;
      });
      raw.once("error", (error) => {
        if (raw.bytesRead === 0) markUnreachable(error);
      });
      raw.once("end", () => {
        if (raw.bytesRead > 0) return;
        // Closed before a word: postgres-js would retry the query on a new connection at once, in
        // a loop, so this counts as a failed attempt and fails the query.
        const error = failure("CONNECTION_CLOSED", `The database at ${target.path || `${host}:${port}`} closed the connection before answering`);
        markUnreachable(error);
        socket.fail(error);
      });
      raw.once("close", () => {
        clearTimeout(connectTimer);
        open.delete(socket);
      });
      const socket = new WatchedSocket(raw);
      // postgres-js names the TLS server (SNI, certificate check) after socket.host.
      Object.assign(socket, { host, port });
      const connectTimer = setTimeout(() => {
        const error = failure("CONNECT_TIMEOUT", `No answer from the database at ${target.path || `${host}:${port}`} within ${options.connectTimeoutMs} ms`);
        markUnreachable(error);
        socket.fail(error);
      }, options.connectTimeoutMs).unref();
      if (options.connectTimeoutMs <= 0) clearTimeout(connectTimer);
      open.add(socket);
      return socket;
    },
    close() {
      clearInterval(checker);
    },
  };
}
