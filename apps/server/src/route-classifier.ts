import type { Request } from "express";
import type { DirectoryMeta } from "@directory/api";

/** One procedure a request calls, with its meta and the input the request gives it. */
export interface ProcedureCall {
  path: string;
  meta: DirectoryMeta | undefined;
  /** The input as sent (REST query and path parameters, or the call's tRPC input), before the procedure parses it. */
  input(): unknown;
}

/** What a request reaches: the door, the route label for metrics and the procedures it calls. */
export interface RouteInfo {
  door: "rest" | "trpc" | "other";
  /** A bounded label: a route template or a procedure path, never the raw URL. */
  route: string;
  /** tRPC or REST procedures the request calls; empty for the other routes. */
  procedures: ProcedureCall[];
}

interface OpenApiRoute {
  method: string;
  pattern: RegExp;
  template: string;
  procedure: string;
  meta: DirectoryMeta;
}

type Procedures = Record<string, { _def: { meta?: DirectoryMeta } } | undefined>;

/** A route template's pattern, each `{name}` segment a named group. */
function templatePattern(template: string): RegExp {
  const source = template
    .split("/")
    .map((segment) => {
      const parameter = /^\{([A-Za-z_]\w*)\}$/.exec(segment)?.[1];
      return parameter ? `(?<${parameter}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/** The tRPC input of call `index` of a GET (`?input=`, superjson's `{ json }`, keyed by index in a batch). */
function trpcInput(req: Request, index: number): unknown {
  const raw = req.query.input;
  if (typeof raw !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    const call = req.query.batch === "1" ? (parsed as Record<string, unknown> | null)?.[index] : parsed;
    return (call as { json?: unknown } | null | undefined)?.json;
  } catch {
    return undefined;
  }
}

/**
 * Maps a request to its route and procedures, from the routers' own metadata: the REST routes of
 * `restProcedures`, the tRPC calls of `trpcProcedures`. `method` lets a CORS preflight ask about
 * the read it prepares.
 */
export function createRouteClassifier(restProcedures: Procedures, trpcProcedures: Procedures) {
  const openApiRoutes: OpenApiRoute[] = [];
  for (const [path, procedure] of Object.entries(restProcedures)) {
    const meta = procedure?._def.meta;
    if (!meta?.openapi) continue;
    openApiRoutes.push({ method: meta.openapi.method, pattern: templatePattern(meta.openapi.path), template: meta.openapi.path, procedure: path, meta });
  }

  /** Several middlewares ask about one request; a procedure route depends only on its path and method, so it is matched once. */
  const procedureRoutes = new WeakMap<Request, Map<string, RouteInfo>>();

  const classify = (req: Request, method = req.method): RouteInfo => {
    const known = procedureRoutes.get(req)?.get(method);
    if (known) return known;
    const route = classifyUncached(req, method);
    if (route.door !== "other") procedureRoutes.set(req, (procedureRoutes.get(req) ?? new Map<string, RouteInfo>()).set(method, route));
    return route;
  };

  const classifyUncached = (req: Request, method: string): RouteInfo => {
    const path = req.baseUrl + req.path;
    if (path.startsWith("/trpc/")) {
      const names = path.slice("/trpc/".length).split(",").filter(Boolean);
      const calls = names.flatMap((name, index) => {
        const procedure = trpcProcedures[name];
        return procedure ? [{ path: name, meta: procedure._def.meta, input: () => trpcInput(req, index) }] : [];
      });
      return {
        door: "trpc",
        route: names.length === 1 && calls.length === 1 ? `/trpc/${names[0]}` : names.length > 1 ? "/trpc/(batch)" : "/trpc/(unknown)",
        procedures: calls,
      };
    }
    const restMethod = method === "HEAD" ? "GET" : method;
    for (const route of openApiRoutes) {
      if (route.method !== restMethod) continue;
      const match = route.pattern.exec(path);
      if (match)
        return {
          door: "rest",
          route: route.template,
          procedures: [{ path: route.procedure, meta: route.meta, input: () => ({ ...req.query, ...match.groups }) }],
        };
    }
    const expressRoute = (req as Request & { route?: { path?: unknown } }).route?.path;
    if (typeof expressRoute === "string") return { door: "other", route: expressRoute, procedures: [] };
    if (path.startsWith("/api/mcp"))
      return {
        door: "other",
        route: path.startsWith("/api/mcp/sse") ? "/api/mcp/sse" : path.startsWith("/api/mcp/messages") ? "/api/mcp/messages" : "/api/mcp",
        procedures: [],
      };
    if (path.startsWith("/api/graphql")) return { door: "other", route: "/api/graphql", procedures: [] };
    return { door: "other", route: "(other)", procedures: [] };
  };

  return classify;
}

export type RouteClassifier = ReturnType<typeof createRouteClassifier>;
