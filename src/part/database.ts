/** A part's database, opened and brought up to date within its scope (closed with the part). */
import {
  type DatabaseConfig,
  type Database,
  type Migration,
  type MigrationProgress,
  type SqliteTuning,
  migrate,
  migrationsApplied,
  openDatabase,
} from "../storage/index.js";
import type { PartScope } from "./scope.js";

export interface PartDatabaseOptions {
  config: DatabaseConfig;
  /** The part's table prefix, which names its migrations ledger too. */
  tablePrefix: string;
  migrations: Record<string, Migration>;
  progress?: MigrationProgress;
  tuning?: SqliteTuning;
}

export interface PartDatabase<Tables> {
  database: Database<Tables>;
  /** The readiness check (GET /_ready): every migration this code knows has been applied. */
  migrated: () => Promise<string | undefined>;
}

export async function openPartDatabase<Tables>(
  scope: PartScope,
  { config, tablePrefix, migrations, progress, tuning }: PartDatabaseOptions,
): Promise<PartDatabase<Tables>> {
  const database = scope.own(openDatabase<Tables>(config, tuning), (db) => db.close());
  await migrate(database, tablePrefix, migrations, progress);
  return { database, migrated: migrationsApplied(database, tablePrefix, migrations) };
}
