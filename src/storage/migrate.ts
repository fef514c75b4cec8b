import { type Kysely, type Migration as KyselyMigration, Migrator, sql } from "kysely";
import type { Database, DatabaseKind } from "./database.js";

/** One schema change of a part; migrations run in the order of their names ("0001_transfers", …). */
export interface Migration {
  up(db: Kysely<never>, engine: DatabaseKind): Promise<void>;
}

/** Told `applied` of `pending` migrations are through; called only when some are pending (0 first). */
export type MigrationProgress = (applied: number, pending: number) => void;

/**
 * Brings a part's tables up to date. Each part keeps its own migration table, so that all parts can
 * share one PostgreSQL database; Kysely's migrator takes a lock, so several processes may start at once.
 */
export async function migrate<Tables>(
  database: Database<Tables>,
  part: string,
  migrations: Record<string, Migration>,
  onProgress?: MigrationProgress,
): Promise<void> {
  let applied = 0;
  let pending = 0;
  const provided: Record<string, KyselyMigration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    provided[name] = {
      up: async (db) => {
        await migration.up(db as Kysely<never>, database.engine);
        onProgress?.(++applied, pending);
      },
    };
  }
  const migrator = new Migrator({
    db: database.db as Kysely<unknown>,
    provider: { getMigrations: async () => provided },
    migrationTableName: `${part}_migrations`,
    migrationLockTableName: `${part}_migrations_lock`,
  });
  if (onProgress !== undefined) {
    // Counted before the lock: another process may apply some meanwhile, then fewer are reported.
    pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
    if (pending > 0) onProgress(0, pending);
  }
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
