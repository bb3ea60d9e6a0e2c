import type { Command } from "commander";
import { adminClientFrom } from "./admin-client";

const KINDS = ["developer", "partner", "business", "admin"] as const;
type Kind = (typeof KINDS)[number];

export function registerKeyCommands(program: Command): void {
  const keys = program.command("keys").description("manage API keys on a running server");

  keys
    .command("create")
    .description("create a key and print it (shown once)")
    .requiredOption("--kind <kind>", `one of ${KINDS.join(", ")}`)
    .option("--business <slug>", "the business a business key is bound to")
    .option("--label <text>", "a note to recognise the key by")
    .option("--json", "print JSON")
    .action(async (options: { kind: string; business?: string; label?: string; json?: boolean }, command: Command) => {
      if (!KINDS.includes(options.kind as Kind)) throw new Error(`--kind must be one of ${KINDS.join(", ")}`);
      const result = await adminClientFrom(command).apiKeys.create.mutate({
        kind: options.kind as Kind,
        businessSlug: options.business,
        label: options.label,
      });
      if (options.json) {
        console.log(JSON.stringify(result, null, 2));
      } else {
        console.log(result.key);
        console.error(`created ${result.apiKey.kind} key ${result.apiKey.id}; store it now, it is not shown again`);
      }
    });

  keys
    .command("list")
    .description("list keys (prefixes only, never the keys): id, kind, prefix, business, account email, state, label")
    .option("--all", "include revoked keys")
    .option("--limit <n>", "at most this many", "100")
    .option("--json", "print JSON")
    .action(async (options: { all?: boolean; limit: string; json?: boolean }, command: Command) => {
      const rows = await adminClientFrom(command).apiKeys.list.query({ includeRevoked: Boolean(options.all), limit: Number(options.limit) });
      if (options.json) return console.log(JSON.stringify(rows, null, 2));
      for (const row of rows) {
        console.log(
          [
            row.id,
            row.kind,
            row.visiblePrefix,
            row.businessId ?? "-",
            row.accountEmail ?? "-",
            row.revokedAt ? `revoked ${row.revokedAt}` : "active",
            row.label ?? "",
          ].join("\t"),
        );
      }
    });

  keys
    .command("revoke <id>")
    .description("revoke a key; it stops working at once")
    .action(async (id: string, _options: unknown, command: Command) => {
      const row = await adminClientFrom(command).apiKeys.revoke.mutate({ id });
      console.log(`revoked ${row.id} (${row.visiblePrefix}) at ${row.revokedAt}`);
    });
}
