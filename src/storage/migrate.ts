import { type Kysely, type Migration as KyselyMigration, Migrator, sql } from "kysely";
import type { Database, DatabaseKind } from "./database.js";

/** One schema change of a part; migrations run in the order of their names ("0001_transfers", …). */
export interface Migration {
  up(db: Kysely<never>, engine: DatabaseKind): Promise<void>;
}

/**
 * Brings a part's tables up to date. Each part keeps its own migration table, so that all parts can
 * share one PostgreSQL database; Kysely's migrator takes a lock, so several processes may start at once.
 */
export async function migrate<Tables>(
  database: Database<Tables>,
  part: string,
  migrations: Record<string, Migration>,
): Promise<void> {
  const provided: Record<string, KyselyMigration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    provided[name] = { up: (db) => migration.up(db as Kysely<never>, database.engine) };
  }
  const migrator = new Migrator({
    db: database.db as Kysely<unknown>,
    provider: { getMigrations: async () => provided },
    migrationTableName: `${part}_migrations`,
    migrationLockTableName: `${part}_migrations_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(
      `migration ${part}/${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * A readiness check (GET /_ready): every migration this code knows has been applied (another process
 * may be migrating the database, or it may have been restored from an old copy). Resolves to the
 * reason when not ready; throws when the database does not answer.
 */
export function migrationsApplied<Tables>(
  database: Database<Tables>,
  part: string,
  migrations: Record<string, Migration>,
): () => Promise<string | undefined> {
  return async () => {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(`${part}_migrations`)}`.execute(
      database.db as Kysely<unknown>,
    );
    const applied = new Set(rows.map((row) => row.name));
    const pending = Object.keys(migrations).filter((name) => !applied.has(name));
    return pending.length === 0 ? undefined : `migrations not applied yet: ${pending.sort().join(", ")}`;
  };
}
