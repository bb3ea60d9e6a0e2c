import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  composeSchemaProblems,
  connectionParameters,
  databaseAddress,
  deployDir,
  iniSections,
  interpolateAll,
  parseCompose,
  referenceProblems,
  serverSettings,
  unreadVariableProblems,
  type ComposeFile,
  type Service,
} from "./compose-topology";
import { readConfig, readWorkerConfig } from "./config";
import { variablesReadByCode } from "./deployment-variables";
import { repoRoot } from "./dockerfile-instructions";

/**
 * deploy/compose.yaml, the production topology of docs/operations.md. Images cannot be pulled
 * here, so it is checked as a file: against the Compose Specification's schema, its variables
 * against what reads them, its services and configuration files against each other; and by
 * `docker compose config` where Compose v2 is installed.
 */
const composeText = readFileSync(path.join(deployDir, "compose.yaml"), "utf8");
const readDeployFile = (relative: string) => readFileSync(path.join(deployDir, relative), "utf8");
const existsInDeploy = (relative: string) => existsSync(path.join(deployDir, relative));

/** The variables an operator must give, with stand-ins. */
const SECRETS = {
  POSTGRES_PASSWORD: "postgres-password-1",
  REPLICATION_PASSWORD: "replication-password-1",
  ADMIN_API_KEY: "admin-key-1",
  WEBHOOK_SECRET_KEY: "00".repeat(32),
  METRICS_TOKEN: "metrics-token-1",
};
const variables = { ...SECRETS, PUBLIC_BASE_URL: "https://directory.example.com" };
const raw = parseCompose(composeText);
const file = interpolateAll(raw, variables);
const { services } = file;

/**
 * What edoburu/pgbouncer's entrypoint (entrypoint.sh) reads when pgbouncer.ini is mounted: the
 * credentials it writes to userlist.txt. Its other variables only shape the pgbouncer.ini it
 * generates when none is mounted, so setting them here would change nothing.
 */
const PGBOUNCER_ENTRYPOINT_VARIABLES = new Set(["DATABASE_URL", "DB_USER", "DB_PASSWORD", "AUTH_TYPE", "AUTH_FILE"]);
/** The postgres image's entrypoint's variables, for a first start on an empty data directory. */
const POSTGRES_IMAGE_VARIABLES = new Set(["POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "POSTGRES_INITDB_ARGS", "PGDATA"]);

/** Variables a shell script names. */
const scriptVariables = (text: string) => new Set([...text.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1]!));
/** The deploy/ files a service mounts, read. */
const mountedFiles = (service: Service) =>
  (service.volumes ?? [])
    .map((volume) => volume.split(":")[0]!)
    .filter((source) => source.startsWith("./"))
    .map(readDeployFile);
const postgresServices = Object.entries(services).filter(([, service]) => service.image?.startsWith("postgres:"));
const isReplica = (service: Service) => (service.entrypoint ?? []).some((word) => word.endsWith("/replica-start.sh"));
const replicas = postgresServices.filter(([, service]) => isReplica(service));
const primaries = postgresServices.filter(([, service]) => !isReplica(service));
const app = services.app!;
const appEnvironment = app.environment!;

function readersOf(): Record<string, ReadonlySet<string>> {
  const code = variablesReadByCode();
  const readers: Record<string, ReadonlySet<string>> = { app: code, "webhook-worker": code, migrate: code, pgbouncer: PGBOUNCER_ENTRYPOINT_VARIABLES };
  for (const [name, service] of postgresServices) {
    readers[name] = new Set([...POSTGRES_IMAGE_VARIABLES, ...mountedFiles(service).flatMap((text) => [...scriptVariables(text)])]);
  }
  return readers;
}

describe("deploy/compose.yaml", () => {
  it("is a Compose file by the Compose Specification's schema, before and after interpolation", () => {
    expect(composeSchemaProblems(raw)).toEqual([]);
    expect(composeSchemaProblems(file)).toEqual([]);
  });

  it("takes every password and key from the environment, required: none is written in", () => {
    const required = /^\$\{[A-Z_][A-Z0-9_]*:\?[^}]*\}$/;
    for (const name of Object.keys(SECRETS)) expect(() => interpolateAll(raw, { ...variables, [name]: undefined }), name).toThrow(name);
    for (const [serviceName, service] of Object.entries(raw.services)) {
      for (const [name, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|KEY|TOKEN|SECRET/.test(name)) expect(value, `${serviceName} ${name}`).toMatch(required);
        for (const match of value.matchAll(/:\/\/[^:@/]+:([^@]*)@/g)) expect(match[1], `${serviceName} ${name}`).toMatch(required);
      }
    }
  });

  it("sets only variables something reads: the code for the app, worker and migrations, the image or our scripts for the rest", () => {
    const readers = readersOf();
    expect(Object.keys(readers).sort()).toEqual(
      Object.keys(services)
        .filter((name) => name !== "load-balancer")
        .sort(),
    );
    expect(unreadVariableProblems(services, readers)).toEqual([]);
    // And the values are ones the processes accept (a pooler without its direct URL, a bad URL: refused).
    expect(readConfig(appEnvironment).databasePooler).toEqual({ directUrl: appEnvironment.DATABASE_DIRECT_URL });
    expect(readWorkerConfig(services["webhook-worker"]!.environment).databaseUrl).toBe(appEnvironment.DATABASE_URL);
  });

  it("runs N stateless app instances, round robin behind the load balancer, each checked on /healthz", () => {
    expect(Number(app.deploy?.replicas)).toBeGreaterThanOrEqual(2);
    expect(appEnvironment).toMatchObject({ DEMO_SEED: "off", WEBHOOK_WORKER: "off", DATABASE_POOLER: "transaction" });
    expect(app.ports).toBeUndefined();
    expect(app.healthcheck?.test?.join(" ")).toContain("/healthz");
    expect(existsSync(path.join(deployDir, (app.build as { context: string }).context, "Dockerfile"))).toBe(true);

    const balancer = services["load-balancer"]!;
    const haproxy = readDeployFile(balancer.volumes!.find((volume) => volume.includes("haproxy.cfg"))!.split(":")[0]!);
    expect(haproxy).toMatch(/^\s*balance roundrobin$/m);
    expect(haproxy).toMatch(/^\s*option httpchk GET \/healthz$/m);
    const targets = [...haproxy.matchAll(/^\s*server-template \S+ \d+ (\S+)$/gm)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThanOrEqual(1);
    for (const target of targets) expect(target).toBe(`app:${app.expose![0]}`);
    expect(app.expose).toHaveLength(1);
    const [, bound] = /^\s*bind :(\d+)$/m.exec(haproxy) ?? [];
    expect(balancer.ports!.map((mapping) => mapping.split(":").at(-1))).toEqual([bound]);
    expect(Object.keys(balancer.depends_on ?? {})).toEqual(["app"]);
  });

  it("runs the webhook worker and the migrations apart, from the same image", () => {
    const worker = services["webhook-worker"]!;
    const migrate = services.migrate!;
    for (const service of [worker, migrate]) {
      expect(service.image).toBe(app.image);
      expect(service.environment?.DATABASE_URL).toBe(appEnvironment.DATABASE_URL);
      expect(service.environment?.DATABASE_DIRECT_URL).toBe(appEnvironment.DATABASE_DIRECT_URL);
    }
    expect(worker.command).toEqual(["node", "apps/server/dist/worker-main.js"]);
    expect(readFileSync(path.join(repoRoot, "apps/server/build.mjs"), "utf8")).toContain('"worker-main": "src/worker-main.ts"');
    expect(migrate.command?.slice(0, 2)).toEqual(["node", "apps/admin/bin/directory-admin.mjs"]);
    expect(migrate.command?.slice(2)).toEqual(["db", "migrate"]);
    expect(existsSync(path.join(repoRoot, migrate.command![1]!))).toBe(true);
    expect(worker.depends_on?.migrate?.condition).toBe("service_completed_successfully");
    expect(app.depends_on?.migrate?.condition).toBe("service_completed_successfully");
  });

  it("sends queries through PgBouncer, LISTEN and migrations to the primary, reads to the replicas", () => {
    const pooler = databaseAddress(appEnvironment.DATABASE_URL!);
    const pgbouncer = services[pooler.host];
    expect(pgbouncer?.image).toMatch(/pgbouncer/);
    const ini = iniSections(mountedFiles(pgbouncer!)[0]!);
    expect(ini.pgbouncer).toMatchObject({ pool_mode: "transaction", listen_port: pooler.port });
    const upstream = connectionParameters(ini.databases![pooler.database]!);
    // Behind the pooler the service sends no statement timeout: the pooler's connect_query sets the same one.
    expect(upstream.connect_query).toBe(`SET statement_timeout = ${appEnvironment.DB_STATEMENT_TIMEOUT_MS}`);

    expect(primaries).toHaveLength(1);
    const [primaryName, primary] = primaries[0]!;
    const direct = databaseAddress(appEnvironment.DATABASE_DIRECT_URL!);
    expect(direct.host).toBe(primaryName);
    expect(upstream.host).toBe(primaryName);
    expect(upstream.dbname).toBe(direct.database);
    expect(pgbouncer!.environment).toMatchObject({ DB_USER: pooler.user, DB_PASSWORD: pooler.password });
    expect(primary.environment).toMatchObject({ POSTGRES_USER: direct.user, POSTGRES_PASSWORD: direct.password, POSTGRES_DB: direct.database });
    expect(pooler).toMatchObject({ user: direct.user, password: direct.password, database: direct.database });

    const replicaUrls = appEnvironment.DATABASE_REPLICA_URLS!.split(",").map(databaseAddress);
    expect(replicaUrls.map((replica) => replica.host).sort()).toEqual(replicas.map(([name]) => name).sort());
    for (const replica of replicaUrls) expect(replica).toMatchObject({ user: direct.user, password: direct.password, database: direct.database, port: "5432" });
  });

  it("streams each replica from the primary: pg_basebackup -R as the role the primary's init script creates, hot_standby_feedback on", () => {
    const [primaryName, primary] = primaries[0]!;
    const init = primary.volumes!.find((volume) => volume.split(":")[1]!.startsWith("/docker-entrypoint-initdb.d/"));
    const initScript = readDeployFile(init!.split(":")[0]!);
    expect(replicas.length).toBeGreaterThanOrEqual(1);
    for (const [name, replica] of replicas) {
      expect(replica.image, name).toBe("postgres:15");
      expect(replica.environment?.PRIMARY_HOST, name).toBe(primaryName);
      expect(replica.environment?.PGPASSWORD, name).toBe(primary.environment?.REPLICATION_PASSWORD);
      const script = mountedFiles(replica).join("\n");
      expect(script).toMatch(/pg_basebackup [^\n]*--host="\$PRIMARY_HOST"/);
      expect(script).toContain("--write-recovery-conf");
      const role = /--username=(\w+)/.exec(script)?.[1];
      expect(initScript).toContain(`CREATE ROLE ${role} WITH REPLICATION LOGIN`);
      expect(initScript).toContain(`host replication ${role} all scram-sha-256`);
      const settings = serverSettings(replica);
      expect(settings.hot_standby_feedback, name).toBe("on");
      // A standby refuses to start with fewer connections than its primary.
      expect(Number(settings.max_connections ?? 100), name).toBeGreaterThanOrEqual(Number(serverSettings(primary).max_connections ?? 100));
    }
    expect(primary.image).toBe("postgres:15");
    expect(serverSettings(primary).wal_level).toBe("replica");
  });

  it("starts in order: what a service waits on exists, and a health condition has a health check", () => {
    expect(referenceProblems(file, existsInDeploy)).toEqual([]);
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        if (condition === "service_healthy") expect(services[dependency]!.healthcheck?.test, `${name} waits for ${dependency} to be healthy`).toBeDefined();
      }
    }
  });

  it("has shell scripts bash can read, and a load balancer configuration HAProxy accepts (where installed)", () => {
    for (const script of ["postgres/primary-init.sh", "postgres/replica-start.sh"]) {
      expect(spawnSync("bash", ["-n", path.join(deployDir, script)], { encoding: "utf8" }).stderr, script).toBe("");
    }
    const haproxy = spawnSync("haproxy", ["-c", "-f", path.join(deployDir, "haproxy.cfg")], { encoding: "utf8" });
    if (haproxy.error) return; // not installed
    expect(haproxy.status, haproxy.stderr).toBe(0);
  });

  const compose = composeCommand();
  it.skipIf(!compose)("is accepted by `docker compose config`, which reads it as this test does (where Compose is installed)", () => {
    const [command, ...args] = compose!;
    const run = (extra: string[], environment: Record<string, string | undefined>) =>
      spawnSync(command!, [...args, "-f", path.join(deployDir, "compose.yaml"), "config", ...extra], {
        env: { ...process.env, ...environment },
        encoding: "utf8",
      });
    const quiet = run(["-q"], variables);
    expect(quiet.stderr).toBe("");
    expect(quiet.status).toBe(0);
    // Merge keys and interpolation as Compose resolves them: the same environments this test checks.
    const resolved = parseCompose(run([], variables).stdout);
    for (const name of Object.keys(services)) expect(resolved.services[name]?.environment ?? {}, name).toEqual(services[name]!.environment ?? {});
    // A required variable unset: Compose refuses, naming it.
    const refused = run(["-q"], { ...variables, POSTGRES_PASSWORD: "" });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("POSTGRES_PASSWORD");
  });
});

/** `docker compose` (the plugin), else the standalone `docker-compose` (Debian's is 1.29, which reads this file too). */
function composeCommand(): string[] | null {
  if (spawnSync("docker", ["compose", "version"], { stdio: "ignore" }).status === 0) return ["docker", "compose"];
  return spawnSync("docker-compose", ["version"], { stdio: "ignore" }).status === 0 ? ["docker-compose"] : null;
}

describe("a broken compose file fails the checks", () => {
  const broken = (edit: (copy: ComposeFile) => void) => {
    const copy = structuredClone(file);
    edit(copy);
    return copy;
  };

  it("a misspelt key or a wrong value fails the schema", () => {
    expect(composeSchemaProblems(broken((copy) => Object.assign(copy.services.app!, { depend_on: ["pgbouncer"] })))).not.toEqual([]);
    expect(composeSchemaProblems(broken((copy) => (copy.services.pgbouncer!.depends_on = { "postgres-primary": { condition: "service_up" } })))).not.toEqual(
      [],
    );
  });

  it("a variable the code does not read, a dependency on no service, a missing file", () => {
    const unread = broken((copy) => (copy.services.app!.environment!.DATABASE_REPLICAS = "postgres://x@y/z"));
    expect(unreadVariableProblems(unread.services, readersOf())).toEqual(["app sets DATABASE_REPLICAS, which nothing it runs reads"]);
    const dangling = broken((copy) => (copy.services.app!.depends_on!.redis = { condition: "service_started" }));
    expect(referenceProblems(dangling, existsInDeploy)).toEqual(["app depends on redis, which is no service"]);
    const missing = broken((copy) => copy.services.pgbouncer!.volumes!.push("./pgbouncer-users.txt:/etc/pgbouncer/userlist.txt"));
    expect(referenceProblems(missing, existsInDeploy)).toEqual(["pgbouncer mounts ./pgbouncer-users.txt, which does not exist"]);
  });
});
