import type { Command } from "commander";
import { createDirectoryClient, type DirectoryClient } from "@directory/sdk";
import { resolveAdminKey } from "./key-source";

/** The typed SDK client for a command, from the global --url and --key options. */
export function adminClientFrom(command: Command): DirectoryClient {
  const options = command.optsWithGlobals<{ url: string; key?: string }>();
  return createDirectoryClient({ baseUrl: options.url, apiKey: resolveAdminKey(options.key) });
}
