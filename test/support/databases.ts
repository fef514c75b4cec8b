import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { DatabaseConfig, DatabaseKind } from "../../src/storage/index.js";

/**
 * The storage engines every storage-backed test runs against. SQLite always; PostgreSQL when a server
 * answers at CASTNET_TEST_DATABASE_URL (default: the local trust-auth server). With
 * CASTNET_TEST_POSTGRES=1 (set by CI) an unreachable PostgreSQL fails the run instead of skipping.
 */
export interface TestEngine {
  engine: DatabaseKind;
  /** A reason to skip, or false. */
  skip: string | false;
  /** A fresh, empty database; `drop` removes it. */
  create(): Promise<{ config: DatabaseConfig; drop(): Promise<void> }>;
}

const ADMIN_URL = process.env.CASTNET_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const POSTGRES_REQUIRED = process.env.CASTNET_TEST_POSTGRES === "1";

async function postgresReachable(): Promise<string | undefined> {
  // A refused connection fails at once; the timeout only has to outlast a server slowed by a busy
  // machine (three seconds did not, once, with the whole suite running on two cores).
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 20_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function sqliteEngine(): TestEngine {
  return {
    engine: "sqlite",
    skip: false,
    async create() {
      const dir = mkdtempSync(join(tmpdir(), "castnet-test-"));
      return {
        config: { engine: "sqlite", path: join(dir, "test.sqlite") },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

function postgresEngine(unreachable: string | undefined): TestEngine {
  if (unreachable !== undefined && POSTGRES_REQUIRED) {
    throw new Error(`CASTNET_TEST_POSTGRES=1 but PostgreSQL at ${ADMIN_URL} is unreachable: ${unreachable}`);
  }
  if (unreachable !== undefined)
    console.log(`# PostgreSQL tests skipped: ${ADMIN_URL} unreachable (${unreachable})`);
  return {
    engine: "postgres",
    skip: unreachable === undefined ? false : `PostgreSQL unreachable at ${ADMIN_URL}`,
    async create() {
      const name = `castnet_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      return {
        config: { engine: "postgres", url: url.toString() },
        async drop() {
          const client = new pg.Client({ connectionString: ADMIN_URL });
          await client.connect();
          await client.query(`drop database if exists ${name} with (force)`);
          await client.end();
        },
      };
    },
  };
}

let cached: Promise<TestEngine[]> | undefined;

export function testEngines(): Promise<TestEngine[]> {
  cached ??= postgresReachable().then((unreachable) => [sqliteEngine(), postgresEngine(unreachable)]);
  return cached;
}
