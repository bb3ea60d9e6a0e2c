import { expect } from "vitest";
import { DomainError } from "../../errors";
import { type OutboundPolicy } from "./outbound-address";

/** The two policies the outbound-address tests judge under, and the refusal they expect: an INVALID_INPUT DomainError. */

export const strict: OutboundPolicy = { allowLoopback: false };
export const dev: OutboundPolicy = { allowLoopback: true };

/** Runs fn, which must refuse; returns the refusal's message. */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("INVALID_INPUT");
    return (error as DomainError).message;
  }
  throw new Error("expected a refusal");
}

/** Awaits a promise that must reject with a refusal; returns the refusal's message. */
export async function asyncRefusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe("INVALID_INPUT");
  return (error as DomainError).message;
}
