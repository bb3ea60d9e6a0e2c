import { z } from "zod";

/*
 * What a tool result carries on MCP: a narrower view of its procedure's output, derived from the
 * procedure's zod schema with .pick/.omit, never a shape written for the tool. tools/list is read on
 * every turn and its output schemas must name every field a result fills, so each field an MCP
 * result leaves out is a field its schema need not list. Nothing is lost: what a view leaves out is
 * what get_business_profile (or REST and tRPC, which keep the full shapes) answers.
 */

type Json = Record<string, unknown>;

/** Every listing says these alike (score contract 2.1): on MCP they are said once, in everyListing. */
export const REPEATED_PER_LISTING = ["directoryCompletenessScoreLabel", "rankingModel", "recommended"] as const;
/**
 * Long owner text and links of a listing: left to get_business_profile, as the text rendering does.
 * The id stays: it is the key a program keeps (a slug can change), and costs a few tokens.
 */
export const LEFT_TO_PROFILE = ["state", "description", "services", "usp", "profileUrl", "ownership", "lastVerifiedAt"] as const;

const mask = (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, true])) as Record<string, true>;

/**
 * Keeps only what the schema names, object by object (arrays and nullable values followed), so a
 * result carries exactly the fields its listed output schema names; values the schema leaves open stay whole.
 */
export function keepListed(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return keepListed(schema.unwrap() as z.ZodType, value);
  if (schema instanceof z.ZodArray && Array.isArray(value)) return value.map((item) => keepListed(schema.element as z.ZodType, item));
  if (schema instanceof z.ZodObject && typeof value === "object" && !Array.isArray(value)) {
    const shape = schema.shape as Record<string, z.ZodType>;
    return Object.fromEntries(Object.entries(value as Json).flatMap(([key, item]) => (shape[key] ? [[key, keepListed(shape[key], item)]] : [])));
  }
  return value;
}

/** A tool's output on MCP: the schema it lists and validates, and the view that makes a procedure's result fit it. */
export interface ToolView {
  schema: z.ZodObject;
  view: (result: Json) => Json;
}

type ListingsSchema = z.ZodObject<{ businesses: z.ZodArray<z.ZodObject> }>;

/**
 * A listing tool on MCP: each listing without the per-listing boilerplate, which everyListing says
 * once (null when the page is empty), and without the long owner text and links (LEFT_TO_PROFILE).
 */
export function listingsOnce(procedureOutput: ListingsSchema): ToolView {
  const listing = procedureOutput.shape.businesses.element;
  const repeated = listing.pick(mask(REPEATED_PER_LISTING));
  const schema = procedureOutput.extend({
    businesses: z.array(listing.omit(mask([...REPEATED_PER_LISTING, ...LEFT_TO_PROFILE]))),
    everyListing: repeated.nullable(),
  });
  return {
    schema,
    view: (result) => {
      const first = (result.businesses as Json[])[0];
      return keepListed(schema, { ...result, everyListing: first ? keepListed(repeated, first) : null }) as Json;
    },
  };
}

type ProfileSchema = z.ZodObject<{ identity: z.ZodObject; claims: z.ZodArray<z.ZodObject>; links: z.ZodObject }>;

/**
 * The profile on MCP: every claim whole (its source record, staleAfter and stale, and with history
 * its superseded ones), as REST answers it. What goes: the JSON-LD copy of the same facts (REST
 * and /entity/{id} serve it), the row's own timestamps and the links beyond the profile page.
 */
export function profileView(procedureOutput: ProfileSchema): ToolView {
  const { identity, links } = procedureOutput.shape;
  const schema = (procedureOutput as z.ZodObject).omit(mask(["structuredData"])).extend({
    identity: identity.omit(mask(["createdAt", "updatedAt"])),
    links: links.pick(mask(["profileUrl"])),
  });
  return { schema, view: (result) => keepListed(schema, result) as Json };
}
