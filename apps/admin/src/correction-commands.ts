import type { Command } from "commander";
import { adminClientFrom } from "./admin-client";

/** directory-admin corrections list|accept|reject: the admin's side of the correction loop, through the server's admin procedures. */
export function registerCorrectionCommands(program: Command): void {
  const corrections = program.command("corrections").description("review corrections proposed by agents and people");

  corrections
    .command("list")
    .description("pending corrections, the most supported first (--status for others)")
    .option("--status <status>", "pending, accepted, rejected or superseded")
    .option("--limit <n>", "at most this many (1 to 200)")
    .option("--json", "print JSON")
    .action(async (options: { status?: string; limit?: string; json?: boolean }, command: Command) => {
      // The server checks status and limit: a bad one is its 400, in its words.
      const result = await adminClientFrom(command).corrections.list.query({
        ...(options.status ? { status: options.status as never } : {}),
        ...(options.limit ? { limit: Number(options.limit) } : {}),
      });
      if (options.json) return console.log(JSON.stringify(result, null, 2));
      for (const c of result.corrections) {
        console.log(`${c.correctionId}\t${c.status}\t${c.slug}\t${c.property}=${JSON.stringify(c.value)}\tsupporters ${c.supporters}\t${c.evidence}`);
      }
    });

  for (const decision of ["accept", "reject"] as const) {
    corrections
      .command(`${decision} <id>`)
      .description(decision === "accept" ? "make the proposed value the current, admin-verified claim" : "reject it; no fact changes")
      .option("--json", "print JSON")
      .action(async (id: string, options: { json?: boolean }, command: Command) => {
        const result = await adminClientFrom(command).corrections[decision].mutate({ id });
        if (options.json) return console.log(JSON.stringify(result, null, 2));
        console.log(`${result.correctionId}\t${result.status}\t${result.slug}\t${result.property}${result.claimId ? `\tclaim ${result.claimId}` : ""}`);
      });
  }
}
