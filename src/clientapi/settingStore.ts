import { randomBytes } from "node:crypto";
import type { ClientApiDb } from "./tables.js";

/** The cursor MAC key, made once per database so that every process sharing it accepts the same cursors. */
export async function cursorKey(db: ClientApiDb): Promise<Buffer> {
  await db
    .insertInto("api_settings")
    .values({ name: "cursor_key", value: randomBytes(32).toString("base64") })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("api_settings")
    .select("value")
    .where("name", "=", "cursor_key")
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, "base64");
}
