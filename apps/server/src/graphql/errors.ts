import { GraphQLError } from "./graphql-js";
import { TRPCError } from "@trpc/server";
import { toPublicError } from "@directory/api";

/**
 * Every GraphQL error leaves with `extensions.code` and `extensions.status` (the HTTP-equivalent
 * status). A procedure's refusal carries its public REST body: `code` is the body's code (e.g.
 * ENTITY_DECOMMISSIONED), the message is its `error`, and its details (publicAlternative, limit,
 * policy, resetAt) sit beside them. The door's own refusals use the codes below.
 */
export const GRAPHQL_ERRORS = {
  /** The query text is not GraphQL. */
  GRAPHQL_PARSE_FAILED: 400,
  /** The query does not fit the schema (unknown field, wrong argument type, ...). */
  GRAPHQL_VALIDATION_FAILED: 400,
  /** A mutation or a subscription: this door is query-only. */
  OPERATION_NOT_SUPPORTED: 405,
  /** The query text is over the size or token cap. */
  QUERY_TOO_LARGE: 413,
  /** The selection nests deeper than the depth limit. */
  QUERY_TOO_DEEP: 400,
  /** Over the cost limit, or more procedure calls than one query may make. */
  QUERY_TOO_COSTLY: 400,
  /** More aliases than one query may use. */
  TOO_MANY_ALIASES: 400,
  /** The HTTP request itself is malformed (no query, variables not an object, ...), or a variable does not fit its type. */
  INVALID_INPUT: 400,
  /** Anything unexpected; its message never leaves. */
  INTERNAL: 500,
} as const;

export type GraphQLErrorCode = keyof typeof GRAPHQL_ERRORS;

export function doorError(code: GraphQLErrorCode, message: string, from?: GraphQLError): GraphQLError {
  return new GraphQLError(message, {
    nodes: from?.nodes,
    source: from?.source,
    positions: from?.positions,
    extensions: { code, status: GRAPHQL_ERRORS[code] },
  });
}

/** A procedure's refusal as a GraphQL error with the REST body's code, status and details. */
export function fromProcedureError(error: TRPCError): GraphQLError {
  const { status, body, retryAfterSeconds } = toPublicError(error);
  const { error: message, code, ...details } = body;
  // A 503 says when to retry, as REST's Retry-After header does.
  return new GraphQLError(message, { extensions: { code, status, ...details, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } });
}

/** Runs one procedure call for a resolver; its TRPCError becomes the public GraphQL error. */
export async function callProcedure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TRPCError) throw fromProcedureError(error);
    throw error;
  }
}

/**
 * The last word on every error before it leaves. Errors that already carry a code pass as they
 * are; graphql-js's own request errors (a missing variable, a bad variable type) and graphql-http's
 * (no query, unparsable body) become INVALID_INPUT; anything a resolver threw without a code is an
 * internal error whose message stays in the log.
 */
export function formatGraphQLError(error: Error | GraphQLError, logUnexpected: (error: unknown) => void): GraphQLError {
  if (!(error instanceof GraphQLError)) return doorError("INVALID_INPUT", error.message);
  if (typeof error.extensions.code === "string") return error;
  const { nodes, source, positions, path } = error;
  if (error.originalError && !(error.originalError instanceof GraphQLError)) {
    logUnexpected(error.originalError);
    return new GraphQLError("Internal server error", { nodes, source, positions, path, extensions: { code: "INTERNAL", status: GRAPHQL_ERRORS.INTERNAL } });
  }
  return new GraphQLError(error.message, { nodes, source, positions, path, extensions: { code: "INVALID_INPUT", status: GRAPHQL_ERRORS.INVALID_INPUT } });
}
