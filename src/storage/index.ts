export {
  openDatabase,
  type Database,
  type DatabaseConfig,
  type DatabaseKind,
  type SqliteTuning,
} from "./database.js";
export { migrate, migrationsApplied, type Migration, type MigrationProgress } from "./migrate.js";
export { serializedTransaction } from "./transaction.js";
export { type BatchCommitted, GroupCommit, SavepointCommits } from "./groupCommit.js";
export { bytesType, hexOf, serialType } from "./columns.js";
export type { Columns } from "./readConnection.js";
export { builderOf, compiled, compiledOnce, type QuerySource, runCompiled } from "./compiled.js";
export { PooledText } from "./pooledText.js";
export { tightenDirectory } from "./permissions.js";
export { type KeyFile, isKey, keyFile } from "./keyFile.js";
