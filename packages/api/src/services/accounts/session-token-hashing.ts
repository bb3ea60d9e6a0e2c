import { createHash } from "node:crypto";
import type { DBAdapter, Where } from "better-auth";

/*
 * The authentication library stores a session's token as it is, and finds the session by it. Keys
 * and tokens are hashed at rest here: this wraps its database adapter so that the session model's
 * `token` is a SHA-256 wherever it is written or matched. The token has 32 random characters, so a
 * plain hash suffices. A row read back by its raw token gets the raw token again (the library signs
 * it into the cookie); rows listed otherwise carry only the hash.
 */

const SESSION_MODEL = "session";

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

function hashWhere(model: string, where: Where[] | undefined): Where[] | undefined {
  if (model !== SESSION_MODEL || !where) return where;
  return where.map((clause) => {
    if (clause.field !== "token") return clause;
    const value = Array.isArray(clause.value) ? clause.value.map((item) => hashSessionToken(String(item))) : hashSessionToken(String(clause.value));
    return { ...clause, value };
  });
}

/** The raw token a query matched on, to give back in place of the stored hash. */
function rawTokenOf(model: string, where: Where[] | undefined): string | undefined {
  if (model !== SESSION_MODEL) return undefined;
  const clause = where?.find((item) => item.field === "token" && (item.operator === undefined || item.operator === "eq"));
  return typeof clause?.value === "string" ? clause.value : undefined;
}

function withToken<T>(row: T, token: string | undefined): T {
  if (!row || token === undefined || typeof row !== "object") return row;
  return { ...row, token };
}

function hashData(model: string, data: Record<string, unknown>): Record<string, unknown> {
  if (model !== SESSION_MODEL || typeof data.token !== "string") return data;
  return { ...data, token: hashSessionToken(data.token) };
}

export function hashingSessionTokens(adapter: DBAdapter): DBAdapter {
  const wrapped: DBAdapter = {
    ...adapter,
    create: async <T extends Record<string, unknown>, R = T>(args: Parameters<DBAdapter["create"]>[0]): Promise<R> => {
      const token = args.model === SESSION_MODEL ? (args.data as Record<string, unknown>).token : undefined;
      const row = await adapter.create<T, R>({ ...args, data: hashData(args.model, args.data as Record<string, unknown>) as never });
      return withToken(row, typeof token === "string" ? token : undefined);
    },
    findOne: async (args) => withToken(await adapter.findOne({ ...args, where: hashWhere(args.model, args.where)! }), rawTokenOf(args.model, args.where)),
    findMany: (args) => adapter.findMany({ ...args, where: hashWhere(args.model, args.where) }),
    count: (args) => adapter.count({ ...args, where: hashWhere(args.model, args.where) }),
    update: async (args) =>
      withToken(
        await adapter.update({ ...args, where: hashWhere(args.model, args.where)!, update: hashData(args.model, args.update) }),
        rawTokenOf(args.model, args.where),
      ),
    updateMany: (args) => adapter.updateMany({ ...args, where: hashWhere(args.model, args.where)!, update: hashData(args.model, args.update) }),
    delete: (args) => adapter.delete({ ...args, where: hashWhere(args.model, args.where)! }),
    deleteMany: (args) => adapter.deleteMany({ ...args, where: hashWhere(args.model, args.where)! }),
    incrementOne: async (args) =>
      withToken(await adapter.incrementOne({ ...args, where: hashWhere(args.model, args.where)! }), rawTokenOf(args.model, args.where)),
    consumeOne: async (args) => withToken(await adapter.consumeOne({ ...args, where: hashWhere(args.model, args.where)! }), rawTokenOf(args.model, args.where)),
    transaction: (callback) => adapter.transaction((trx) => callback(hashingSessionTokens(trx as DBAdapter) as never)),
  };
  return wrapped;
}
