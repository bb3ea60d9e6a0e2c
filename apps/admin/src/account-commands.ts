import type { Command } from "commander";
import type { RouterOutputs } from "@directory/sdk";
import { adminClientFrom } from "./admin-client";

type AccountSummary = RouterOutputs["accounts"]["list"][number];
type AccountDetails = RouterOutputs["accounts"]["show"];

function planLine(plan: AccountSummary["plan"]): string {
  return plan ? `${plan.name} ${plan.status} until ${plan.activeUntil} (${plan.source})` : "-";
}

function summaryLine(account: AccountSummary): string {
  const state = account.disabledAt ? `disabled ${account.disabledAt}` : "enabled";
  return [account.email, account.createdAt, state, planLine(account.plan), `${account.activeKeys} keys`].join("\t");
}

function detailsBlock(account: AccountDetails): string {
  const lines = [
    `email:         ${account.email}`,
    `created:       ${account.createdAt}`,
    `disabled:      ${account.disabledAt ?? "no"}`,
    `plan:          ${planLine(account.plan)}`,
    `active keys:   ${account.activeKeys}`,
    `open sessions: ${account.openSessions}`,
    `keys:${account.keys.length === 0 ? "          none" : ""}`,
  ];
  for (const key of account.keys) {
    const state = key.revokedAt ? `revoked ${key.revokedAt}` : "active";
    lines.push(`  ${[key.id, key.visiblePrefix, state, `created ${key.createdAt}`, `last used ${key.lastUsedAt ?? "never"}`, key.label ?? ""].join("\t")}`);
  }
  return lines.join("\n");
}

export function registerAccountCommands(program: Command): void {
  const accounts = program.command("accounts").description("see and manage the accounts of people signed in by email");

  accounts
    .command("list")
    .description("list accounts, newest first: email, created, state, plan, active keys")
    .option("--limit <n>", "at most this many", "100")
    .option("--json", "print JSON")
    .action(async (options: { limit: string; json?: boolean }, command: Command) => {
      const rows = await adminClientFrom(command).accounts.list.query({ limit: Number(options.limit) });
      if (options.json) return console.log(JSON.stringify(rows, null, 2));
      for (const row of rows) console.log(summaryLine(row));
    });

  accounts
    .command("show <email>")
    .description("one account: its plan, its keys (prefixes only) and its open sessions")
    .option("--json", "print JSON")
    .action(async (email: string, options: { json?: boolean }, command: Command) => {
      const account = await adminClientFrom(command).accounts.show.query({ email });
      console.log(options.json ? JSON.stringify(account, null, 2) : detailsBlock(account));
    });

  accounts
    .command("grant-plan <email>")
    .description("grant the developer plan through the end of a day (UTC); makes the account if the address has none yet")
    .requiredOption("--until <YYYY-MM-DD>", "the last day the plan counts")
    .option("--json", "print JSON")
    .action(async (email: string, options: { until: string; json?: boolean }, command: Command) => {
      const account = await adminClientFrom(command).accounts.grantPlan.mutate({ email, until: options.until });
      console.log(options.json ? JSON.stringify(account, null, 2) : `granted ${account.email}: ${planLine(account.plan)}`);
    });

  accounts
    .command("disable <email>")
    .description("disable an account: its sessions end and its keys stop working at once")
    .action(async (email: string, _options: unknown, command: Command) => {
      const account = await adminClientFrom(command).accounts.disable.mutate({ email });
      console.log(`disabled ${account.email} at ${account.disabledAt}; its sessions ended and its ${account.activeKeys} keys are refused`);
    });
}
