import { DirectoryError, directoryErrorOf } from "@directory/sdk";

/**
 * One line for a person: the service's own { error, code } when it sent one; when no answer came,
 * the URL that was tried and the network's reason, since fetch's own "fetch failed" names neither.
 */
export function describeCliError(error: unknown, serverUrl: string): string {
  const fromService = directoryErrorOf(error);
  if (fromService) return `${fromService.error} (${fromService.code}, HTTP ${fromService.status})`;
  if (error instanceof DirectoryError && error.code === "NETWORK_ERROR") {
    return `cannot reach ${serverUrl} (${deepestCause(error).message}); is the server running there? (--url or DIRECTORY_URL)`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The innermost Error of a cause chain: the one saying what the network answered (ECONNREFUSED, ENOTFOUND...). */
function deepestCause(error: Error): Error {
  let current = error;
  while (current.cause instanceof Error) current = current.cause;
  return current;
}
