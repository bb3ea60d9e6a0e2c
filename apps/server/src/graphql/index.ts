import cors from "cors";
import type { ErrorRequestHandler, Express, Request, Response } from "express";
import { getOperationAST, getVariableValues, GraphQLError, Kind, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs } from "./graphql-js";
import { createHandler, type Request as GraphQLHttpRequest } from "graphql-http";
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
  // Variables are coerced here, not left to execute(): its refusal is a result without data, which
  // graphql-http would send as 200 where application/graphql-response+json requires a 4xx.
  const operation = getOperationAST(document, operationName);
  if (!operation) {
    return [
      doorError(
        "INVALID_INPUT",
        operationName ? `No operation named "${operationName}" in the query` : "The query holds several operations: name one (operationName)",
      ),
    ];
  }
  const coerced = getVariableValues(graphqlSchema, operation.variableDefinitions ?? [], variableValues ?? {});
  if (coerced.errors) return coerced.errors.map((error) => doorError("INVALID_INPUT", error.message, error));
  return { schema: graphqlSchema, document, operationName, variableValues };
}

/** graphql-http's refusals made before any query runs, which it sends without a body: ours carry { error, code } like every error. */
const BODILESS_REFUSALS: Record<number, { code: string; error: string }> = {
  405: { code: "METHOD_NOT_ALLOWED", error: "GraphQL is served over GET or POST" },
  406: {
    code: "NOT_ACCEPTABLE",
    error: "The Accept header admits no type this endpoint answers: application/graphql-response+json or application/json (charset utf-8)",
  },
  415: { code: "UNSUPPORTED_MEDIA_TYPE", error: "A POST body must be application/json (charset utf-8) with query, variables and operationName" },
};

/** The request as graphql-http reads it, the body from the app's parser when it ran. */
function toGraphQLHttpRequest(req: Request, res: Response): GraphQLHttpRequest<Request, { res: Response }> {
  return {
    url: req.url,
    method: req.method,
    headers: req.headers,
    body: () =>
      req.body !== undefined
        ? (req.body as Record<string, unknown>)
        : new Promise<string>((resolve) => {
            let body = "";
            req.setEncoding("utf-8");
            req.on("data", (chunk: string) => (body += chunk));
            req.on("end", () => resolve(body));
          }),
    raw: req,
    context: { res },
  };
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
  const handle = createHandler<Request, { res: Response }, GraphQLContext>({
    schema: graphqlSchema,
    onSubscribe: (_req, params) => prepare(params.query, params.operationName ?? undefined, params.variables ?? undefined),
    context: (req) => ({ caller: createCaller(contextFor(req.raw, req.context.res)) }),
    formatError: (error) => formatGraphQLError(error, (unexpected) => log.error({ err: unexpected }, "graphql resolver failed")),
  });
  app.all(GRAPHQL_PATH, async (req, res, next) => {
    try {
      const [body, init] = await handle(toGraphQLHttpRequest(req, res));
      const refusal = BODILESS_REFUSALS[init.status];
      if (refusal && !body) {
        res.status(init.status).set(init.headers).json(refusal);
        return;
      }
      res.writeHead(init.status, init.statusText, init.headers).end(body);
    } catch (error) {
      next(error);
    }
  });
  app.use(GRAPHQL_PATH, bodyErrors);
}
