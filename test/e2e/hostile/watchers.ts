/**
 * Watching for writes below HTTP: on SQLite each database's `data_version` tells after every request
 * whether anything committed, and a content fingerprint of every table says what changed; on
 * PostgreSQL the fingerprint alone, per part. A refused request that changed a table is a partial
 * write.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { PARTS, type Part } from "./parts.js";

export interface WriteWatch {
  /** Tables whose content changed since the last call (a cheap no-op when nothing committed). */
  changes(parts?: readonly Part[]): Promise<string[]>;
  /** Whether a per-request check is cheap enough for every request. */
  cheap: boolean;
  close(): Promise<void>;
}

function digestRows(rows: unknown): string {
  const json = JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === "bigint"
      ? value.toString()
      : value instanceof Uint8Array
        ? Buffer.from(value).toString("hex")
        : value,
  );
  return createHash("sha256").update(json).digest("hex");
}

export function sqliteWatch(dataDir: string): WriteWatch {
  const dbs = PARTS.map((part) => {
    const db = new Database(join(dataDir, `${part}.sqlite`), { readonly: true, fileMustExist: true });
    const tables = (
      db
        .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    const fingerprint = () =>
      new Map(tables.map((t) => [t, digestRows(db.prepare(`select * from "${t}"`).raw().all())]));
    return {
      part,
      db,
      version: db.pragma("data_version", { simple: true }),
      last: fingerprint(),
      fingerprint,
    };
  });
  return {
    cheap: true,
    async changes(parts = PARTS) {
      const changed: string[] = [];
      for (const entry of dbs) {
        if (!parts.includes(entry.part)) continue;
        const version = entry.db.pragma("data_version", { simple: true });
        if (version === entry.version) continue;
        entry.version = version;
        const now = entry.fingerprint();
        for (const [table, digest] of now) if (entry.last.get(table) !== digest) changed.push(table);
        entry.last = now;
      }
      return changed;
    },
    async close() {
      for (const { db } of dbs) db.close();
    },
  };
}

const PREFIX: Record<Part, string> = { registry: "registry_", hub: "hub_", api: "api_", chain: "chain_" };

export async function postgresWatch(url: string): Promise<WriteWatch> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  const tables = rows.map((row) => row.table_name).filter((t) => PARTS.some((p) => t.startsWith(PREFIX[p])));
  const fingerprint = async (parts: readonly Part[]) => {
    const chosen = tables.filter((t) => parts.some((p) => t.startsWith(PREFIX[p])));
    const sql = chosen
      .map(
        (t) =>
          `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`,
      )
      .join(" union all ");
    const result = await client.query<{ t: string; h: string }>(sql);
    return new Map(result.rows.map((row) => [row.t, row.h]));
  };
  let last = await fingerprint(PARTS);
  return {
    cheap: false,
    async changes(parts = PARTS) {
      const now = await fingerprint(parts);
      const changed = [...now].filter(([t, h]) => last.get(t) !== h).map(([t]) => t);
      last = new Map([...last, ...now]);
      return changed;
    },
    close: () => client.end(),
  };
}
