import { z } from "zod";
import { cleanOwnerJson, cleanOwnerList, cleanOwnerText, OWNER_TEXT_LIMITS } from "./owner-text";

/*
 * Output schema types for text an owner or a third party wrote. Each cleans and caps the value as
 * the output is parsed, and tRPC returns the parsed output, so REST, tRPC, MCP and the pages serve
 * only cleaned text (owner-text.ts has the rules). `.overwrite`, unlike `.transform`,
 * keeps the type a plain string in the OpenAPI document. Every output field an owner or a third
 * party can write uses one of these.
 */

/** Names, taglines, USPs, questions, titles, contact details. */
export const ZOwnerText = z.string().overwrite((text) => cleanOwnerText(text, OWNER_TEXT_LIMITS.short));

/** Descriptions, answers, and sentences composed from owner text. */
export const ZOwnerLongText = z.string().overwrite((text) => cleanOwnerText(text, OWNER_TEXT_LIMITS.long));

/** Services, keywords: short items, a bounded list. */
export const ZOwnerTextList = z.array(z.string()).overwrite(cleanOwnerList);

/** A list of owner-written entries (e.g. opening hours): the first listItems only. */
export function ownerList<T extends z.ZodType>(item: T) {
  return z.array(item).overwrite((items) => items.slice(0, OWNER_TEXT_LIMITS.listItems));
}

/** Any JSON shape carrying owner text (claim values, schema.org JSON-LD): every string and key inside it cleaned. */
export function cleanedJson<T extends z.ZodType>(schema: T): T {
  return schema.overwrite((value) => cleanOwnerJson(value) as z.output<T>);
}

/** Only an ISO 4217 shape leaves; offers.currency has the same CHECK in the database. */
export const ZCurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe("ISO 4217 currency code");
