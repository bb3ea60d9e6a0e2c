import { z } from "zod";
import type { ApiKeyKind } from "@directory/db";
import type { AccessClass, DirectoryMeta } from "../../trpc";
import { admitsCaller, KEY_KINDS_ADMITTED } from "../access/key-requirements";
import { LEAD_CONSENT_RULE } from "./agent-facts";

/** The router's procedures by tRPC path, as far as the gateway reads them: meta and input parsers. */
export type RouterProcedures = Record<string, { _def: { meta?: DirectoryMeta; inputs: unknown[] } }>;

interface AgentOperation {
  operation: string;
  rest: string | null;
  mcpTool: string | null;
  access: AccessClass;
}

/**
 * The operations agents reach other than by REST (every REST operation is listed from its meta):
 * one row per MCP tool (packages/mcp/src/tools), and the one an owner's agent calls through tRPC
 * alone. A row named like a REST operation completes it: search_businesses is the assistant
 * plugin's search in the tool's shape. Only names live here; who may call each operation is its
 * procedure's access class.
 */
const BEYOND_REST: ReadonlyArray<{ operation: string; procedure: string; mcpTool: string | null }> = [
  { operation: "searchBusinesses", procedure: "search.searchCategory", mcpTool: "search_businesses" },
  { operation: "getEntityProfile", procedure: "entities.getEntityProfile", mcpTool: "get_business_profile" },
  { operation: "getCategoryLeaders", procedure: "search.categoryLeaders", mcpTool: "get_category_leaders" },
  { operation: "searchByKeyword", procedure: "search.searchKeyword", mcpTool: "search_by_keyword" },
  { operation: "getBuyerQuestions", procedure: "entities.getBuyerQuestions", mcpTool: "get_buyer_questions" },
  { operation: "getListicle", procedure: "search.getListicle", mcpTool: "get_listicle" },
  { operation: "compareBusinesses", procedure: "entities.compare", mcpTool: "compare_businesses" },
  { operation: "getAvailableCities", procedure: "search.availableCities", mcpTool: "get_available_cities" },
  { operation: "getOffers", procedure: "entities.getOffers", mcpTool: "get_offers" },
  { operation: "submitLead", procedure: "leads.submit", mcpTool: "submit_lead" },
  { operation: "getLeadStatus", procedure: "leads.status", mcpTool: "get_lead_status" },
  { operation: "getMyVisibilityScore", procedure: "owner.visibility", mcpTool: "get_my_visibility_score" },
  { operation: "getMyCitations", procedure: "owner.citations", mcpTool: "get_my_citations" },
  { operation: "transitionLead", procedure: "leads.transition", mcpTool: null },
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
 * its history mode as an operation of its own), then the rows above, in that order. Operations of
 * one name are one entry, so they must admit the same callers.
 */
function agentOperations(procedures: RouterProcedures): AgentOperation[] {
  const operations = new Map<string, AgentOperation>();
  const add = (next: AgentOperation) => {
    const known = operations.get(next.operation);
    if (known && KEY_KINDS_ADMITTED[known.access] !== KEY_KINDS_ADMITTED[next.access]) {
      throw new Error(`Agent operations: the procedures of ${next.operation} admit different callers`);
    }
    operations.set(next.operation, known ? { ...known, rest: known.rest ?? next.rest, mcpTool: known.mcpTool ?? next.mcpTool } : next);
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
  for (const { operation, procedure, mcpTool } of BEYOND_REST) add({ operation, rest: null, mcpTool, access: accessOf(procedure, procedures) });
  return [...operations.values()];
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
    mayNotCall: operations
      .filter((op) => !permitted.includes(op))
      .map((op) => ({ operation: op.operation, needs: KEY_KINDS_ADMITTED[op.access] === "any" ? "any_key" : op.access })),
    consentRule: `submitLead ${LEAD_CONSENT_RULE}`,
  };
}
