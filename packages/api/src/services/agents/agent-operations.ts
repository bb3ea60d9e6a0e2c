import { z } from "zod";
import type { ApiKeyKind } from "@directory/db";
import type { AccessClass, DirectoryMeta } from "../../procedures/meta";
import { admitsCaller, KEY_KINDS_ADMITTED } from "../access/key-requirements";
import { LEAD_CONSENT_RULE } from "./agent-facts";

/** The router's procedures by tRPC path, as far as the gateway reads them: meta and input parsers. */
export type RouterProcedures = Record<string, { _def: { meta?: DirectoryMeta; inputs: unknown[] } }>;

let served: RouterProcedures | null = null;

/**
 * root.ts hands over the router's procedures once it has built the router: the agents' own
 * procedures read their meta (handshake, catalogue) but are part of that router, so they cannot
 * import it.
 */
export function serveProcedures(procedures: RouterProcedures): void {
  served = procedures;
}

/** The procedures root.ts served; every call reaches a procedure through that router, so they are there. */
export function servedProcedures(): RouterProcedures {
  if (!served) throw new Error("The router has not been built: root.ts serves its procedures when it is imported");
  return served;
}

interface AgentOperation {
  operation: string;
  rest: string;
  mcpTool: string | null;
  access: AccessClass;
}

/**
 * The procedure each MCP tool calls (packages/mcp/src/tools). Every one has a REST operation, and
 * the tool is listed on it, under its operationId: one name per operation on every door. Only names
 * live here; who may call each operation is its procedure's access class.
 */
const MCP_TOOLS: ReadonlyArray<{ procedure: string; mcpTool: string }> = [
  { procedure: "search.searchCategory", mcpTool: "search_businesses" },
  { procedure: "entities.getEntityProfile", mcpTool: "get_business_profile" },
  { procedure: "search.categoryLeaders", mcpTool: "get_category_leaders" },
  { procedure: "search.searchKeyword", mcpTool: "search_by_keyword" },
  { procedure: "entities.getBuyerQuestions", mcpTool: "get_buyer_questions" },
  { procedure: "search.getListicle", mcpTool: "get_listicle" },
  { procedure: "entities.compare", mcpTool: "compare_businesses" },
  { procedure: "search.availableCities", mcpTool: "get_available_cities" },
  { procedure: "entities.getOffers", mcpTool: "get_offers" },
  { procedure: "leads.submit", mcpTool: "submit_lead" },
  { procedure: "leads.status", mcpTool: "get_lead_status" },
  { procedure: "owner.visibility", mcpTool: "get_my_visibility_score" },
  { procedure: "owner.citations", mcpTool: "get_my_citations" },
  { procedure: "corrections.submit", mcpTool: "suggest_correction" },
];

function accessOf(path: string, procedures: RouterProcedures): AccessClass {
  const access = procedures[path]?._def.meta?.access;
  if (!access) throw new Error(`Agent operations: no procedure ${path} with an access class`);
  return access;
}

/** History mode (superseded claims) needs a key whatever the procedure's class (services/entities/entity-profile.ts). */
function takesHistory(inputs: unknown[]): boolean {
  return inputs.some((input) => input instanceof z.ZodObject && "history" in input.shape);
}

/**
 * Every operation an agent can call, derived from the router: each REST operation (meta.openapi;
 * its history mode as an operation of its own), with the MCP tool that calls the same procedure.
 * A tool whose procedure has no REST operation is an error, not a row with rest: null: REST parity
 * is a promise (issue 22). Operations of one name are one entry, so they must admit the same callers.
 */
function agentOperations(procedures: RouterProcedures): AgentOperation[] {
  const operations = new Map<string, AgentOperation>();
  const add = (next: AgentOperation) => {
    const known = operations.get(next.operation);
    if (known && KEY_KINDS_ADMITTED[known.access] !== KEY_KINDS_ADMITTED[next.access]) {
      throw new Error(`Agent operations: the procedures of ${next.operation} admit different callers`);
    }
    operations.set(next.operation, known ? { ...known, mcpTool: known.mcpTool ?? next.mcpTool } : next);
  };
  for (const [path, { _def }] of Object.entries(procedures)) {
    const openapi = _def.meta?.openapi;
    if (!openapi) continue;
    const { operationId, method } = openapi;
    if (!operationId) throw new Error(`Agent operations: the REST operation of ${path} has no operationId`);
    const rest = `${method} ${openapi.path}`;
    add({ operation: operationId, rest, mcpTool: null, access: accessOf(path, procedures) });
    if (takesHistory(_def.inputs)) add({ operation: `${operationId}History`, rest: `${rest}?history=true`, mcpTool: null, access: "key" });
  }
  for (const { procedure, mcpTool } of MCP_TOOLS) {
    const operationId = procedures[procedure]?._def.meta?.openapi?.operationId;
    if (!operationId) throw new Error(`Agent operations: the MCP tool ${mcpTool} calls ${procedure}, which has no REST operation`);
    const known = operations.get(operationId);
    if (!known) throw new Error(`Agent operations: no REST operation ${operationId}`);
    operations.set(operationId, { ...known, mcpTool });
  }
  return [...operations.values()];
}

type Needs = "nothing" | "any_key" | "partner" | "business" | "admin";

function needsOf(access: AccessClass): Needs {
  const admitted = KEY_KINDS_ADMITTED[access];
  if (admitted === null) return "nothing";
  return admitted === "any" ? "any_key" : (access as Exclude<Needs, "nothing" | "any_key">);
}

/** Every operation with its REST route, its MCP tool and the key it needs (for the discovery manifest). */
export function operationCatalogue(procedures: RouterProcedures) {
  return agentOperations(procedures).map(({ operation, rest, mcpTool, access }) => ({ operation, rest, mcpTool, needs: needsOf(access) }));
}

export interface GatewayHandshakeParams {
  procedures: RouterProcedures;
  caller: { kind: ApiKeyKind | null; businessId: string | null };
  agent: string | undefined;
}

/** The handshake: who the caller is, and exactly which operations it may call with what it presented. */
export function gatewayHandshake(params: GatewayHandshakeParams) {
  const { caller } = params;
  const operations = agentOperations(params.procedures);
  const permitted = operations.filter((op) => admitsCaller(op.access, caller.kind));
  return {
    agent: params.agent ?? null,
    identity: { kind: caller.kind ?? "anonymous", businessId: caller.businessId },
    mayCall: permitted.map(({ operation, rest, mcpTool }) => ({ operation, rest, mcpTool })),
    mayNotCall: operations.filter((op) => !permitted.includes(op)).map((op) => ({ operation: op.operation, needs: needsOf(op.access) })),
    consentRule: `submitLead ${LEAD_CONSENT_RULE}`,
  };
}
