import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toPublicError } from "./errors";

describe("toPublicError", () => {
  const refused = z.object({ address: z.string() }).safeParse({ address: null }).error!;

  it("answers an input the schema refuses with a 400 naming the parameter", () => {
    expect(toPublicError(new TRPCError({ code: "BAD_REQUEST", cause: refused }))).toEqual({
      status: 400,
      body: { error: "Invalid parameter address: Invalid input: expected string, received null", code: "INVALID_INPUT" },
    });
  });

  it("answers an output the schema refuses as the server's fault, naming nothing inside", () => {
    // tRPC reports output validation as INTERNAL_SERVER_ERROR with the ZodError as its cause.
    expect(toPublicError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Output validation failed", cause: refused }))).toEqual({
      status: 500,
      body: { error: "Internal server error", code: "INTERNAL" },
    });
  });
});
