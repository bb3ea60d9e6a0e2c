import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import { directoryErrorOf } from "@directory/sdk";

/**
 * resources/read of a URI the server has nothing at. The SDK answers it with the code the protocol
 * revision in use names (-32602 since 2026-07-28, which earlier clients also accept).
 */
export function resourceNotFound(uri: string, reason: string): ProtocolError {
  return new ResourceNotFoundError(uri, `Resource not found: ${uri}: ${reason}`);
}

/**
 * A failed procedure call as the error resources/read answers: a business or category that does
 * not exist (404) or is no longer served (410) is "Resource not found", a malformed part of the
 * URI invalid params; anything else stays an internal error, without the procedure's details.
 */
export function resourceReadError(uri: string, error: unknown, what: string): Error {
  const directoryError = directoryErrorOf(error);
  if (directoryError && (directoryError.status === 404 || directoryError.status === 410)) return resourceNotFound(uri, directoryError.error);
  if (directoryError?.status === 400) return new ProtocolError(ProtocolErrorCode.InvalidParams, `${directoryError.error} (${directoryError.code})`, { uri });
  return new Error(directoryError ? `${directoryError.error} (${directoryError.code})` : `Could not read ${what}`, { cause: error });
}
