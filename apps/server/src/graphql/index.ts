import cors from "cors";
import type { ErrorRequestHandler, Express, Request, Response } from "express";
import { GraphQLError, Kind, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs } from "./graphql-js";
import { createHandler } from "graphql-http/lib/use/express";
import { createCaller, type Context } from "@directory/api";
import { classifyBodyError, type BodyRefusalKind } from "../body-errors";
import { doorError, formatGraphQLError } from "./errors";
import { checkLimits, MAX_QUERY_BYTES, MAX_QUERY_TOKENS } from "./limits";
import { graphqlSchema, graphqlSdl, type GraphQLContext } from "./schema";

export { graphqlSchema } from "./schema";

export const GRAPHQL_PATH = "/api/graphql";

/** Where to do instead what this query-only door refuses. */
export const QUERY_ONLY_MESSAGE =
  "This GraphQL endpoint is query-only. Changes go through the REST or tRPC operations (GET /api/openapi.json lists them; tRPC at /trpc); " +
  "for real-time updates register a webhook for entity.updated (POST /api/developers/webhooks) instead of a subscription.";

/**
 * Everything that happens to a document before any procedure runs, cheapest first: the size cap,
 * parsing with a token cap, query-only, the depth/cost/alias limits, then graphql-js validation.
 */
function prepare(
  query: string,
  operationName: string | undefined,
  variableValues: Record<string, unknown> | undefined,
): Omit<ExecutionArgs, "contextValue"> | GraphQLError[] {
  if (Buffer.byteLength(query, "utf8") > MAX_QUERY_BYTES) return [doorError("QUERY_TOO_LARGE", `The query is longer than ${MAX_QUERY_BYTES} bytes`)];
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: MAX_QUERY_TOKENS });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    if (/tokens/.test(error.message)) return [doorError("QUERY_TOO_LARGE", `The query has more than ${MAX_QUERY_TOKENS} tokens`)];
    return [doorError("GRAPHQL_PARSE_FAILED", error.message, error)];
  }
  const refused = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation !== "query");
  if (refused?.kind === Kind.OPERATION_DEFINITION)
    return [
      doorError("OPERATION_NOT_SUPPORTED", `${refused.operation[0]!.toUpperCase()}${refused.operation.slice(1)}s are not offered. ${QUERY_ONLY_MESSAGE}`),
    ];
  const overLimit = checkLimits(graphqlSchema, document, variableValues);
  if (overLimit) return [overLimit];
  const invalid = validate(graphqlSchema, document, specifiedRules);
  if (invalid.length > 0) return invalid.map((error) => doorError("GRAPHQL_VALIDATION_FAILED", error.message, error));
  return { schema: graphqlSchema, document, operationName, variableValues };
}

/** Body refusals answered in the GraphQL error shape; the others get the app's JSON error body. */
const GRAPHQL_BODY_REFUSALS: ReadonlySet<BodyRefusalKind> = new Set(["too-deep", "too-large", "malformed-json"]);

/** Parse errors of the app's body parser, in the GraphQL error shape for this path. */
const bodyErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const refusal = classifyBodyError(error);
  if (!refusal || !GRAPHQL_BODY_REFUSALS.has(refusal.kind)) return next(error);
  const { status, body } = refusal;
  res.status(status).json({ errors: [{ message: body.error, extensions: { code: body.code, status } }] });
};

/**
 * The GraphQL door: POST (and GET for queries) on /api/graphql, over graphql-http. Resolvers call
 * procedures through a tRPC caller with the request's own context, like every other door.
 */
export function mountGraphql(app: Express, contextFor: (req: Request, res: Response) => Context, log: { error(obj: object, msg: string): void }): void {
  // Query-only and keyed by a header (no cookies), so any origin may read, as on the other public read routes.
  app.use(GRAPHQL_PATH, cors({ origin: "*", methods: ["GET", "POST", "OPTIONS"], allowedHeaders: ["Authorization", "Content-Type"] }));
  const sdl = graphqlSdl();
  app.get(`${GRAPHQL_PATH}/schema.graphql`, (_req, res) => {
    res.type("text/plain").send(sdl);
  });
  const handler = createHandler<GraphQLContext>({
    schema: graphqlSchema,
    onSubscribe: (_req, params) => prepare(params.query, params.operationName ?? undefined, params.variables ?? undefined),
    context: (req) => ({ caller: createCaller(contextFor(req.raw, req.context.res)) }),
    formatError: (error) => formatGraphQLError(error, (unexpected) => log.error({ err: unexpected }, "graphql resolver failed")),
  });
  app.all(GRAPHQL_PATH, handler);
  app.use(GRAPHQL_PATH, bodyErrors);
}
