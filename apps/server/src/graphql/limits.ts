import {
  getNamedType,
  GraphQLObjectType,
  Kind,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type SelectionSetNode,
} from "./graphql-js";
import { doorError } from "./errors";

/*
 * Limits on the query document, checked before any procedure runs (docs/graphql.md). The
 * procedures keep their own limits (rate limits count each resolved procedure call; inputs pass
 * the input gate); these bound what one document can ask for.
 */

/** Query text in bytes: the full entity query with every field is about 2 KB, introspection under 2 KB. */
export const MAX_QUERY_BYTES = 10_000;
/** Lexical tokens graphql-js may read before it gives up (parse work stays linear and small). */
export const MAX_QUERY_TOKENS = 2_000;
/** Field nesting; the deepest real path is 4 (entity.agentProfile.actions.href). Introspection has its own rule. */
export const MAX_DEPTH = 6;
/** Aliases per document: enough to fetch a handful of entities side by side. */
export const MAX_ALIASES = 15;
/** Procedure calls one query may make: as many as one tRPC batch may carry (MAX_TRPC_BATCH_CALLS; a test keeps them equal). */
export const MAX_PROCEDURE_CALLS = 10;
/** Points per procedure call, on top of 1 per selected field (times the bound of each enclosing list). */
export const PROCEDURE_COST = 100;
/**
 * List bounds are the services' caps (output-types.ts). A full entity profile costs about 400
 * (current claims: one per claimable property), one with offers, questions and agent profile about
 * 1,000, a full 50-result lookup about 1,200: four lookups, or several whole entities, fit. History
 * mode counts claims at the service's cap of 1,000, so a history query selects a few claim fields.
 */
export const MAX_COST = 5_000;
/** Selections the analysis visits at most (fragments spread inside fragments could multiply work). */
const MAX_ANALYSIS_STEPS = 10_000;

/** Arguments of the procedure field a selection sits under, with the request's variables filled in. */
export type ProcedureArguments = Record<string, unknown>;

/** Cost hints on a field's `extensions.cost` (output-types.ts, schema.ts). */
export interface FieldCost {
  /** The field's resolver calls one procedure. */
  procedure?: boolean;
  /**
   * The longest list the field returns; nested selections cost this many times over. A function
   * reads the arguments of the procedure it comes from (a history entity lists more claims).
   */
  listBound?: number | ((args: ProcedureArguments) => number);
}

export interface QueryMeasure {
  depth: number;
  cost: number;
  procedureCalls: number;
  aliases: number;
}

class Abort extends Error {}

function argumentsOf(field: FieldNode, variables: Record<string, unknown>): ProcedureArguments {
  return Object.fromEntries((field.arguments ?? []).map((argument) => [argument.name.value, valueFromASTUntyped(argument.value, variables)]));
}

/** Depth, cost, procedure calls and aliases of every operation in a parsed document. */
export function measureDocument(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> = {}): QueryMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let aliases = 0;
  visit(document, {
    FragmentDefinition: (node) => void fragments.set(node.name.value, node),
    Field: (node) => void (node.alias && aliases++),
  });
  const measure: QueryMeasure = { depth: 0, cost: 0, procedureCalls: 0, aliases };
  let steps = 0;

  function walk(
    selectionSet: SelectionSetNode,
    parent: GraphQLObjectType | null,
    depth: number,
    multiplier: number,
    spreading: Set<string>,
    args: ProcedureArguments,
  ): void {
    for (const selection of selectionSet.selections) {
      if (++steps > MAX_ANALYSIS_STEPS) throw new Abort();
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        // Introspection is bounded by graphql-js's MaxIntrospectionDepthRule and the size caps.
        if (name.startsWith("__")) continue;
        measure.depth = Math.max(measure.depth, depth);
        if (depth > MAX_DEPTH) return;
        const field = parent?.getFields()[name];
        const hints = (field?.extensions.cost ?? {}) as FieldCost;
        const fieldArgs = hints.procedure ? argumentsOf(selection, variables) : args;
        measure.cost += multiplier;
        if (hints.procedure) {
          measure.cost += multiplier * PROCEDURE_COST;
          measure.procedureCalls += multiplier;
        }
        if (selection.selectionSet) {
          const child = field ? getNamedType(field.type) : null;
          const bound = typeof hints.listBound === "function" ? hints.listBound(fieldArgs) : (hints.listBound ?? 1);
          walk(selection.selectionSet, child instanceof GraphQLObjectType ? child : null, depth + 1, multiplier * bound, spreading, fieldArgs);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const typed = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        walk(selection.selectionSet, typed instanceof GraphQLObjectType ? typed : null, depth, multiplier, spreading, args);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        // Unknown and cyclic fragments are validation errors; here they only must not loop.
        if (!fragment || spreading.has(name)) continue;
        const typed = schema.getType(fragment.typeCondition.name.value);
        walk(fragment.selectionSet, typed instanceof GraphQLObjectType ? typed : null, depth, multiplier, new Set([...spreading, name]), args);
      }
    }
  }

  try {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      walk(definition.selectionSet, schema.getRootType(definition.operation) ?? null, 1, 1, new Set(), {});
    }
  } catch (error) {
    if (!(error instanceof Abort)) throw error;
    measure.cost = Number.POSITIVE_INFINITY;
  }
  return measure;
}

/** The first limit a document breaks, as the error to answer with; null when it keeps them all. */
export function checkLimits(schema: GraphQLSchema, document: DocumentNode, variables?: Record<string, unknown>): GraphQLError | null {
  const { depth, cost, procedureCalls, aliases } = measureDocument(schema, document, variables);
  if (aliases > MAX_ALIASES) return doorError("TOO_MANY_ALIASES", `The query uses ${aliases} aliases; at most ${MAX_ALIASES} are allowed`);
  if (depth > MAX_DEPTH) return doorError("QUERY_TOO_DEEP", `The query nests deeper than ${MAX_DEPTH} levels`);
  if (procedureCalls > MAX_PROCEDURE_CALLS) {
    return doorError(
      "QUERY_TOO_COSTLY",
      `The query would make ${procedureCalls} procedure calls; at most ${MAX_PROCEDURE_CALLS} are allowed (each counts against your rate limit)`,
    );
  }
  if (cost > MAX_COST) {
    const estimate = Number.isFinite(cost) ? `costs ${cost} points` : "is too complex to measure";
    return doorError(
      "QUERY_TOO_COSTLY",
      `The query ${estimate}; at most ${MAX_COST} are allowed (1 per field, ${PROCEDURE_COST} per procedure call, times the length of enclosing lists)`,
    );
  }
  return null;
}
