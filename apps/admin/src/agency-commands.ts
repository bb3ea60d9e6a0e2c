import type { Command } from "commander";
import type { RouterOutputs } from "@directory/sdk";
import { adminClientFrom } from "./admin-client";

/*
 * The operator's view of agencies: people who manage other businesses' listings. An agency's plan
 * is its own account's, granted or sold like a person's.
 */

type AgencySummary = RouterOutputs["accounts"]["agencies"][number];

function agencyLine(agency: AgencySummary): string {
  const plan = agency.plan ? `${agency.plan.name} ${agency.plan.status} until ${agency.plan.activeUntil} (${agency.plan.source})` : "-";
  return [agency.slug, agency.name, agency.createdAt, `${agency.members} members`, `${agency.businesses} businesses`, plan].join("\t");
}

export function registerAgencyCommands(program: Command): void {
  const agencies = program.command("agencies").description("see the agencies that manage listings for businesses");

  agencies
    .command("list")
    .description("list agencies, newest first: slug, name, created, members, businesses, plan")
    .option("--limit <n>", "at most this many (500 at most)", "100")
    .option("--json", "print JSON")
    .action(async (options: { limit: string; json?: boolean }, command: Command) => {
      const rows = await adminClientFrom(command).accounts.agencies.query({ limit: Number(options.limit) });
      if (options.json) return console.log(JSON.stringify(rows, null, 2));
      for (const row of rows) console.log(agencyLine(row));
    });
}
