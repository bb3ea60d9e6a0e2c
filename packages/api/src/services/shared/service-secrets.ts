import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { perDatabase, serviceSecrets, type Db } from "@directory/db";

/**
 * A key the service keeps for one purpose (`name`), which no client ever sees: the partner feed
 * signs its cursors with one. It lives in the database (service_secrets), so every instance sharing
 * the database uses the same key with nothing to configure, and verifies what another issued. The
 * first request to need it makes it (the first insert wins; every instance then reads that row),
 * and each instance holds it in memory per database, so a request costs no round trip once warm.
 *
 * For integrity only: a cursor signed with it is one this service issued. Anyone who can read the
 * database could sign their own, which gives them nothing they could not read there directly. Keys
 * that must stay secret from the database (the webhooks' sealing key) are configured instead.
 */
const SECRET_BYTES = 32;

const secretsByDatabase = perDatabase(() => new Map<string, Promise<Buffer>>());

export function serviceSecret(db: Db, name: string): Promise<Buffer> {
  const secrets = secretsByDatabase.get(db);
  let secret = secrets.get(name);
  if (!secret) {
    const reading = readOrMake(db, name);
    secrets.set(name, reading);
    // A failed read is not held: the next request tries again.
    reading.catch(() => {
      if (secrets.get(name) === reading) secrets.delete(name);
    });
    secret = reading;
  }
  return secret;
}

async function readOrMake(db: Db, name: string): Promise<Buffer> {
  await db
    .insert(serviceSecrets)
    .values({ name, secret: randomBytes(SECRET_BYTES) })
    .onConflictDoNothing();
  const [row] = await db.select({ secret: serviceSecrets.secret }).from(serviceSecrets).where(eq(serviceSecrets.name, name));
  if (!row) throw new Error(`service secret ${name} was neither made nor found`);
  return row.secret;
}
