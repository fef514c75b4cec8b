/**
 * Pages of stored messages for the gRPC API: the messages' protobuf bytes, framed as the answer's
 * repeated field and joined by the database.
 */
import { sql } from "kysely";
import type { Database, PooledText } from "../../storage/index.js";
import { type MessageList, nextKey, pageStatement } from "./messageReads.js";
import type { KeyPageRequest } from "./paging.js";
import type { HubTables } from "./tables.js";

/** A page of messages for the gRPC API: their stored bytes, each as a protobuf field 1. */
export interface FramedPage {
  /**
   * The messages as the repeated field 1 of MessagesResponse: tag, varint length, bytes, each; from
   * a reader thread, in a slot of memory shared with it (released once serialised).
   */
  framed: Uint8Array | PooledText;
  next: Uint8Array | undefined;
}

/** Every byte, for SQLite to cut one from: it has no function making a byte of a number. */
const SQLITE_BYTES = `x'${Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0")).join("")}'`;

/** SQL of one byte whose value is `value`, an integer expression below 256. */
function byteOf(postgres: boolean, value: string): string {
  return postgres
    ? `set_byte(decode('00', 'hex'), 0, ${value})`
    : `substr(${SQLITE_BYTES}, (${value}) + 1, 1)`;
}

/**
 * SQL of a row's `message` (of `size` bytes) as field 1 of a protobuf answer: tag 0x0a, the size
 * as a varint (up to four bytes: 256 MiB, far beyond any message a hub takes), the bytes.
 */
function framedMessage(postgres: boolean): string {
  const byte = (index: number, last: boolean) =>
    byteOf(postgres, last ? `size >> ${7 * index}` : `((size >> ${7 * index}) & 127) | 128`);
  const varint = (bytes: number) =>
    Array.from({ length: bytes }, (_, i) => byte(i, i === bytes - 1)).join(" || ");
  const cases = [1, 2, 3].map((bytes) => `when size < ${2 ** (7 * bytes)} then ${varint(bytes)}`);
  const tag = postgres ? "decode('0a', 'hex')" : "x'0a'";
  return `${tag} || (case ${cases.join(" ")} else ${varint(4)} end) || message`;
}

/**
 * Pages a message list as the stored protobuf bytes of its messages (the gRPC API), framed and
 * joined by the database as jsonPage (messages.ts) joins JSON: one buffer per page (the answer is
 * bytes in the end), where a row per message cost the reader thread a buffer each, more than the
 * query itself. SQLite joins blobs as text and keeps their bytes as they are: the cast takes the
 * bytes back.
 */
export async function framedPage(
  database: Database<HubTables>,
  list: MessageList,
  page: KeyPageRequest,
): Promise<FramedPage> {
  const direction = page.reverse ? "desc" : "asc";
  const postgres = database.engine === "postgres";
  const [row] = await database.readLongText(
    pageStatement(
      database,
      "framed",
      list,
      page,
      () =>
        list
          .query(page.after, page.reverse)
          .select([
            "m.ts_hash as ts_hash",
            "m.message as message",
            sql<number>`${sql.raw(postgres ? "octet_length" : "length")}(m.message)`.as("size"),
          ])
          .orderBy("m.ts_hash", direction)
          .limit(page.pageSize),
      (rows) => {
        const item = sql.raw(framedMessage(postgres));
        return rows.select(
          (postgres
            ? sql<Uint8Array | null>`string_agg(${item}, ''::bytea order by ts_hash ${sql.raw(direction)})`
            : sql<Uint8Array | null>`cast(group_concat(${item}, '') as blob)`
          ).as("joined"),
        );
      },
    ),
    "joined",
  );
  const count = Number(row?.n ?? 0);
  if (row === undefined || row.joined === null || count === 0)
    return { framed: new Uint8Array(0), next: undefined };
  return { framed: row.joined, next: nextKey(page, row) };
}
