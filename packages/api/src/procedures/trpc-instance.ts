import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import type { Context } from "../context";
import { toPublicError } from "../errors";
import type { DirectoryMeta } from "./meta";

/** The one tRPC instance: the builders, the limits and the router are all made from it. */
export const t = initTRPC
  .context<Context>()
  .meta<DirectoryMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const { status, body } = toPublicError(error);
      // No stack and no internal message ever leaves; `public` is the REST body verbatim.
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message: body.error, data: { ...data, httpStatus: status, public: body } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
