import { DomainError } from "../../errors";
import type { Mailer } from "./mailer.types";

/** The door's mailer; a door that sends no mail (MCP, GraphQL) says where the person can do it instead. */
export function requireMailer(mailer: Mailer | null, where: string): Mailer {
  if (!mailer) throw new DomainError("UNAVAILABLE", `This door sends no mail: ${where}`);
  return mailer;
}
