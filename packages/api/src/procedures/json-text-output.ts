import { z } from "zod";
import { createSchema } from "zod-openapi";
import type { Context } from "../context";
import { JsonText } from "../services/shared/json-text";

/*
 * Procedures whose answer is JSON text already written (JsonText: the partner feed's pages, joined
 * from stored documents): one procedure serves every door. A door that writes the text as it is
 * (ctx.writesJsonText: apps/server's partner feed door) gets the JsonText unread; every other door
 * (tRPC, in-process callers) gets its value, checked against the schema like any output.
 */

/**
 * The output schema: typed and documented (OpenAPI) as the value, `valueSchema`; it lets a JsonText
 * through unread (its documents were checked against the contract when they were written) and
 * checks a value.
 */
export function jsonTextOutput<S extends z.ZodType>(valueSchema: S) {
  const { schema: documented } = createSchema(valueSchema, { io: "output" });
  return z
    .custom<z.output<S>>((answer) => answer instanceof JsonText || valueSchema.safeParse(answer).success, "an answer of the documented shape")
    .meta({
      override: ({ jsonSchema }) => {
        Object.assign(jsonSchema, documented);
      },
    });
}

/** The answer for the door that asked: the text to a door that writes it (its type names the value the text holds), the value to every other. */
export function answerJsonText<T>(ctx: Pick<Context, "writesJsonText">, text: JsonText<T>): T {
  return ctx.writesJsonText ? (text as unknown as T) : text.value();
}
