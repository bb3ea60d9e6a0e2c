import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { repoRoot } from "./dockerfile-instructions";

/**
 * deploy/compose.yaml read as Compose reads it (YAML merge keys, then `${NAME}` interpolation),
 * and the checks compose-topology.test.ts makes of it. Each check returns its problems, so that
 * the test can show a broken file failing them as well as the real file passing.
 */

export const deployDir = path.join(repoRoot, "deploy");

export interface Service {
  image?: string;
  build?: unknown;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  expose?: string[];
  deploy?: { replicas?: number | string };
  healthcheck?: { test?: string[]; disable?: boolean };
}

export interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The file as YAML, merge keys applied, before interpolation. */
export function parseCompose(text: string): ComposeFile {
  return parse(text, { merge: true }) as ComposeFile;
}

/**
 * Compose's interpolation of one value: `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
 * `${NAME:?message}` and `${NAME?message}` (a required variable unset: an error naming it), `$$`.
 */
export function interpolate(value: string, variables: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([A-Z_][A-Z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name: string | undefined, colon: string, operator: string, operand: string) => {
      if (whole === "$$") return "$";
      const set = variables[name!];
      const missing = colon ? !set : set === undefined;
      if (operator === "?" && missing) throw new Error(`required variable ${name} is missing a value: ${operand}`);
      if (operator === "-" && missing) return operand;
      return set ?? "";
    },
  );
}

/** Every string of the parsed file interpolated. */
export function interpolateAll<Value>(value: Value, variables: Record<string, string | undefined>): Value {
  if (typeof value === "string") return interpolate(value, variables) as Value;
  if (Array.isArray(value)) return value.map((item: unknown) => interpolateAll(item, variables)) as Value;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, variables)])) as Value;
  return value;
}

let validateCompose: ValidateFunction | undefined;

function compileComposeSchema(): ValidateFunction {
  const schema = JSON.parse(readFileSync(path.join(repoRoot, "apps/server/fixtures/schemas/compose-spec.json"), "utf8")) as Record<string, unknown>;
  // Its $schema names draft-07 by an https address Ajv does not know as draft-07 (it is).
  delete schema.$schema;
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

/** The Compose Specification's JSON schema (fixtures/schemas/README.md says where it comes from). */
export function composeSchemaProblems(file: unknown): string[] {
  validateCompose ??= compileComposeSchema();
  const validate = validateCompose;
  if (validate(file)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`);
}

/** Environment variables a service sets that nothing reads: for our processes, the code; for others, their image. */
export function unreadVariableProblems(services: Record<string, Service>, readersOf: Record<string, ReadonlySet<string>>): string[] {
  const problems: string[] = [];
  for (const [name, readers] of Object.entries(readersOf)) {
    const service = services[name];
    if (!service) problems.push(`no service ${name}`);
    for (const variable of Object.keys(service?.environment ?? {}))
      if (!readers.has(variable)) problems.push(`${name} sets ${variable}, which nothing it runs reads`);
  }
  return problems;
}

/** A `postgres://user:password@host:port/database` URL's parts. */
export function databaseAddress(url: string): { user: string; password: string; host: string; port: string; database: string } {
  const parsed = new URL(url);
  return { user: parsed.username, password: parsed.password, host: parsed.hostname, port: parsed.port || "5432", database: parsed.pathname.slice(1) };
}

/** `key = value` settings of an ini file (PgBouncer's), by section; `;` comments dropped. */
export function iniSections(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let section = "";
  for (const line of text.split("\n").map((raw) => raw.trim())) {
    if (line === "" || line.startsWith(";") || line.startsWith("#")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) section = header[1]!;
    else {
      const [key, ...value] = line.split("=");
      (sections[section] ??= {})[key!.trim()] = value.join("=").trim();
    }
  }
  return sections;
}

/** A PgBouncer [databases] entry's connection string: `host=... port=... connect_query='...'`. */
export function connectionParameters(entry: string): Record<string, string> {
  return Object.fromEntries([...entry.matchAll(/(\w+)=('([^']*)'|\S+)/g)].map((match) => [match[1]!, match[3] ?? match[2]!]));
}

/** A service's `-c name=value` server settings. */
export function serverSettings(service: Service): Record<string, string> {
  const command = service.command ?? [];
  const settings: Record<string, string> = {};
  command.forEach((word, index) => {
    if (word === "-c") {
      const [name, value] = command[index + 1]!.split("=");
      settings[name!] = value!;
    }
  });
  return settings;
}

/** depends_on naming no service, and every file a service mounts from deploy/ that does not exist. */
export function referenceProblems(file: ComposeFile, exists: (relative: string) => boolean): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(file.services)) {
    for (const dependency of Object.keys(service.depends_on ?? {}))
      if (!file.services[dependency]) problems.push(`${name} depends on ${dependency}, which is no service`);
    for (const volume of service.volumes ?? []) {
      const source = volume.split(":")[0]!;
      if (source.startsWith(".")) {
        if (!exists(source)) problems.push(`${name} mounts ${source}, which does not exist`);
      } else if (!(source in (file.volumes ?? {}))) problems.push(`${name} mounts the volume ${source}, which is not declared`);
    }
  }
  return problems;
}
