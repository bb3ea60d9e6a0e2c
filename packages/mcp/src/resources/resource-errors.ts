import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { directoryErrorOf } from "@directory/sdk";

/**
 * The MCP specification's code for "Resource not found" (resources/read of a URI the server has
 * nothing at). The SDK's ErrorCode enum lacks it, so it is named here.
 */
export const RESOURCE_NOT_FOUND = -32002;

export function resourceNotFound(uri: string, reason: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}: ${reason}`, { uri });
}

/**
 * A failed procedure call as the error resources/read answers: a business or category that does
 * not exist (404) or is no longer served (410) is "Resource not found", a malformed part of the
 * URI invalid params; anything else stays an internal error, without the procedure's details.
 */
export function resourceReadError(uri: string, error: unknown, what: string): Error {
  const directoryError = directoryErrorOf(error);
  if (directoryError && (directoryError.status === 404 || directoryError.status === 410)) return resourceNotFound(uri, directoryError.error);
  if (directoryError?.status === 400) return new McpError(ErrorCode.InvalidParams, `${directoryError.error} (${directoryError.code})`, { uri });
  return new Error(directoryError ? `${directoryError.error} (${directoryError.code})` : `Could not read ${what}`, { cause: error });
}
