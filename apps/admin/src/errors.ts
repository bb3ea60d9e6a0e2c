import { directoryErrorOf } from "@directory/sdk";

/** One line for a person: the service's own { error, code } when it sent one. */
export function describeCliError(error: unknown): string {
  const fromService = directoryErrorOf(error);
  if (fromService) return `${fromService.error} (${fromService.code}, HTTP ${fromService.status})`;
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === "ECONNREFUSED") return `cannot reach the server (${error.message}); is it running? (--url)`;
    return error.message;
  }
  return String(error);
}
