import { randomBytes } from "node:crypto";
import { type Insertable, type Kysely, type Selectable, type Updateable, sql } from "kysely";
import { type Database, serializedTransaction } from "../storage/index.js";
import type { ActionKind, ApiTables, KeyRequestState } from "./tables.js";

export type ChannelRow = Selectable<ApiTables["api_channels"]>;
export type ChannelPatch = Updateable<ApiTables["api_channels"]>;
export type ActionRow = Selectable<ApiTables["api_actions"]>;
export type KeyRequestRow = Selectable<ApiTables["api_signed_key_requests"]>;
export type Executor = Kysely<ApiTables>;

/** A keyset position: the time column of the last row seen and its id. */
export interface After {
  at: number;
  id: number;
}

/** Queries over the `api_` tables; rules live in the services. Writes take the transaction they run in. */
export class ClientApiStore {
  constructor(readonly database: Database<ApiTables>) {}

  get db(): Executor {
    return this.database.db;
  }

  transaction<T>(lockKey: string, work: (trx: Executor) => Promise<T>): Promise<T> {
    return serializedTransaction(this.database, lockKey, work);
  }

  /** The cursor MAC key, made once per database so that every process sharing it accepts the same cursors. */
  async cursorKey(): Promise<Buffer> {
    await this.db
      .insertInto("api_settings")
      .values({ name: "cursor_key", value: randomBytes(32).toString("base64") })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("api_settings")
      .select("value")
      .where("name", "=", "cursor_key")
      .executeTakeFirstOrThrow();
    return Buffer.from(row.value, "base64");
  }

  // Channels

  listChannels(): Promise<ChannelRow[]> {
    return this.db.selectFrom("api_channels").selectAll().orderBy("created_at").orderBy("id").execute();
  }

  getChannel(id: string, q: Executor = this.db): Promise<ChannelRow | undefined> {
    return q.selectFrom("api_channels").selectAll().where("id", "=", id).executeTakeFirst();
  }

  channelIdByUrl(url: string, q: Executor): Promise<string | undefined> {
    return q
      .selectFrom("api_channels")
      .select("id")
      .where("url", "=", url)
      .executeTakeFirst()
      .then((row) => row?.id);
  }

  async insertChannel(trx: Executor, row: Insertable<ApiTables["api_channels"]>): Promise<void> {
    await trx.insertInto("api_channels").values(row).execute();
    await this.channelsChanged(trx);
  }

  async updateChannel(trx: Executor, id: string, patch: ChannelPatch): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await trx.updateTable("api_channels").set(patch).where("id", "=", id).execute();
    await this.channelsChanged(trx);
  }

  // Channel follows

  // The keyset page reads are the hot path: they are written as parameterised SQL templates, which
  // cost about half as much per request as the same queries built with the query builder.

  async channelFollowers(channelId: string, after: After | undefined, limit: number) {
    const keyset = after ? sql`and (followed_at, id) < (${after.at}, ${after.id})` : sql``;
    const { rows } = await sql<{ id: number; fid: number; followed_at: number }>`
      select id, fid, followed_at from api_channel_follows
      where channel_id = ${channelId} ${keyset}
      order by followed_at desc, id desc limit ${limit}`.execute(this.db);
    return rows;
  }

  async followedChannels(fid: number, after: After | undefined, limit: number) {
    const keyset = after ? sql`and (followed_at, id) < (${after.at}, ${after.id})` : sql``;
    const { rows } = await sql<{ id: number; channel_id: string; followed_at: number }>`
      select id, channel_id, followed_at from api_channel_follows
      where fid = ${fid} ${keyset}
      order by followed_at desc, id desc limit ${limit}`.execute(this.db);
    return rows;
  }

  channelsByIds(ids: string[]): Promise<ChannelRow[]> {
    return this.db.selectFrom("api_channels").selectAll().where("id", "in", ids).execute();
  }

  async channelsVersion(): Promise<number> {
    const row = await this.db
      .selectFrom("api_versions")
      .select("version")
      .where("name", "=", "channels")
      .executeTakeFirstOrThrow();
    return row.version;
  }

  /** Every write to api_channels calls this in its transaction, so that cached channels are dropped. */
  private async channelsChanged(trx: Executor): Promise<void> {
    await trx
      .updateTable("api_versions")
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .where("name", "=", "channels")
      .execute();
  }

  followedAt(channelId: string, fid: number, q: Executor = this.db): Promise<number | undefined> {
    return q
      .selectFrom("api_channel_follows")
      .select("followed_at")
      .where("channel_id", "=", channelId)
      .where("fid", "=", fid)
      .executeTakeFirst()
      .then((row) => row?.followed_at);
  }

  /** Returns whether a follow was added (false when the fid already followed). */
  async follow(trx: Executor, channelId: string, fid: number, followedAt: number): Promise<boolean> {
    const inserted = await trx
      .insertInto("api_channel_follows")
      .values({ channel_id: channelId, fid, followed_at: followedAt })
      .onConflict((oc) => oc.columns(["channel_id", "fid"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return false;
    await trx
      .updateTable("api_channels")
      .set((eb) => ({ follower_count: eb("follower_count", "+", 1) }))
      .where("id", "=", channelId)
      .execute();
    await this.channelsChanged(trx);
    return true;
  }

  /** Returns whether a follow was removed. */
  async unfollow(trx: Executor, channelId: string, fid: number): Promise<boolean> {
    const deleted = await trx
      .deleteFrom("api_channel_follows")
      .where("channel_id", "=", channelId)
      .where("fid", "=", fid)
      .returning("id")
      .executeTakeFirst();
    if (!deleted) return false;
    await trx
      .updateTable("api_channels")
      .set((eb) => ({ follower_count: eb("follower_count", "-", 1) }))
      .where("id", "=", channelId)
      .execute();
    await this.channelsChanged(trx);
    return true;
  }

  /** Bulk load for seeding and benchmarks: follows that are all new, and the counts they add. */
  async insertFollows(trx: Executor, channelId: string, follows: { fid: number; followedAt: number }[]) {
    if (follows.length === 0) return;
    await trx
      .insertInto("api_channel_follows")
      .values(follows.map((f) => ({ channel_id: channelId, fid: f.fid, followed_at: f.followedAt })))
      .execute();
    await trx
      .updateTable("api_channels")
      .set((eb) => ({ follower_count: eb("follower_count", "+", follows.length) }))
      .where("id", "=", channelId)
      .execute();
    await this.channelsChanged(trx);
  }

  // Blocks

  async blocks(blockerFid: number | undefined, after: After | undefined, limit: number) {
    const conditions = [];
    if (blockerFid !== undefined) conditions.push(sql`blocker_fid = ${blockerFid}`);
    if (after) conditions.push(sql`(created_at, id) < (${after.at}, ${after.id})`);
    const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    const { rows } = await sql<{ id: number; blocker_fid: number; blocked_fid: number; created_at: number }>`
      select id, blocker_fid, blocked_fid, created_at from api_blocks ${where}
      order by created_at desc, id desc limit ${limit}`.execute(this.db);
    return rows;
  }

  async block(trx: Executor, blockerFid: number, blockedFid: number, createdAt: number): Promise<number> {
    await trx
      .insertInto("api_blocks")
      .values({ blocker_fid: blockerFid, blocked_fid: blockedFid, created_at: createdAt })
      .onConflict((oc) => oc.columns(["blocker_fid", "blocked_fid"]).doNothing())
      .execute();
    const row = await trx
      .selectFrom("api_blocks")
      .select("created_at")
      .where("blocker_fid", "=", blockerFid)
      .where("blocked_fid", "=", blockedFid)
      .executeTakeFirstOrThrow();
    return row.created_at;
  }

  async unblock(trx: Executor, blockerFid: number, blockedFid: number): Promise<boolean> {
    const deleted = await trx
      .deleteFrom("api_blocks")
      .where("blocker_fid", "=", blockerFid)
      .where("blocked_fid", "=", blockedFid)
      .returning("id")
      .executeTakeFirst();
    return deleted !== undefined;
  }

  // Actions

  /** The `top` list of discover-actions: "ordered by total users", i.e. installs. */
  async topActions(kind: ActionKind, after: { users: number; id: number } | undefined, limit: number) {
    const keyset = after ? sql`and (install_count, id) < (${after.users}, ${after.id})` : sql``;
    const { rows } = await sql<ActionRow>`
      select * from api_actions where kind = ${kind} ${keyset}
      order by install_count desc, id desc limit ${limit}`.execute(this.db);
    return rows;
  }

  async featuredActions(after: { rank: number; id: number } | undefined, limit: number) {
    const keyset = after ? sql`and (featured_rank, id) > (${after.rank}, ${after.id})` : sql``;
    const { rows } = await sql<ActionRow>`
      select * from api_actions where featured_rank is not null ${keyset}
      order by featured_rank, id limit ${limit}`.execute(this.db);
    return rows;
  }

  listActions(): Promise<ActionRow[]> {
    return this.db.selectFrom("api_actions").selectAll().orderBy("id").execute();
  }

  getAction(id: number, q: Executor = this.db): Promise<ActionRow | undefined> {
    return q.selectFrom("api_actions").selectAll().where("id", "=", id).executeTakeFirst();
  }

  actionIdByUrl(kind: ActionKind, actionUrl: string, q: Executor): Promise<number | undefined> {
    return q
      .selectFrom("api_actions")
      .select("id")
      .where("kind", "=", kind)
      .where("action_url", "=", actionUrl)
      .executeTakeFirst()
      .then((row) => row?.id);
  }

  async insertAction(trx: Executor, row: Insertable<ApiTables["api_actions"]>): Promise<number> {
    const inserted = await trx
      .insertInto("api_actions")
      .values(row)
      .returning("id")
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** Returns whether the install was new. */
  async install(trx: Executor, actionId: number, fid: number, at: number): Promise<boolean> {
    const inserted = await trx
      .insertInto("api_action_installs")
      .values({ action_id: actionId, fid, installed_at: at })
      .onConflict((oc) => oc.columns(["action_id", "fid"]).doNothing())
      .returning("fid")
      .executeTakeFirst();
    if (!inserted) return false;
    await trx
      .updateTable("api_actions")
      .set((eb) => ({ install_count: eb("install_count", "+", 1) }))
      .where("id", "=", actionId)
      .execute();
    return true;
  }

  async uninstall(trx: Executor, actionId: number, fid: number): Promise<boolean> {
    const deleted = await trx
      .deleteFrom("api_action_installs")
      .where("action_id", "=", actionId)
      .where("fid", "=", fid)
      .returning("fid")
      .executeTakeFirst();
    if (!deleted) return false;
    await trx
      .updateTable("api_actions")
      .set((eb) => ({ install_count: eb("install_count", "-", 1) }))
      .where("id", "=", actionId)
      .execute();
    return true;
  }

  async lastFeaturedRank(trx: Executor): Promise<number> {
    const row = await trx
      .selectFrom("api_actions")
      .select((eb) => eb.fn.max("featured_rank").as("rank"))
      .executeTakeFirst();
    return row?.rank === null || row?.rank === undefined ? 0 : Number(row.rank);
  }

  async setFeaturedRank(trx: Executor, actionId: number, rank: number | null): Promise<void> {
    await trx.updateTable("api_actions").set({ featured_rank: rank }).where("id", "=", actionId).execute();
  }

  // Power badges

  async powerBadgeHolders(): Promise<number[]> {
    const rows = await this.db
      .selectFrom("api_power_badge_computed as c")
      .select("c.fid")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("api_power_badge_overrides as o")
              .select("o.fid")
              .whereRef("o.fid", "=", "c.fid")
              .where("o.granted", "=", 0),
          ),
        ),
      )
      .union(this.db.selectFrom("api_power_badge_overrides").select("fid").where("granted", "=", 1))
      .orderBy("fid")
      .execute();
    return rows.map((row) => row.fid);
  }

  computedBadges(): Promise<number[]> {
    return this.db
      .selectFrom("api_power_badge_computed")
      .select("fid")
      .orderBy("fid")
      .execute()
      .then((rows) => rows.map((row) => row.fid));
  }

  badgeOverrides(): Promise<{ fid: number; granted: number; set_at: number }[]> {
    return this.db.selectFrom("api_power_badge_overrides").selectAll().orderBy("fid").execute();
  }

  async setBadgeOverride(trx: Executor, fid: number, granted: boolean, at: number): Promise<void> {
    const value = { granted: granted ? 1 : 0, set_at: at };
    await trx
      .insertInto("api_power_badge_overrides")
      .values({ fid, ...value })
      .onConflict((oc) => oc.column("fid").doUpdateSet(value))
      .execute();
  }

  async clearBadgeOverride(trx: Executor, fid: number): Promise<boolean> {
    const deleted = await trx
      .deleteFrom("api_power_badge_overrides")
      .where("fid", "=", fid)
      .returning("fid")
      .executeTakeFirst();
    return deleted !== undefined;
  }

  async hasBadgeRun(slot: number, q: Executor = this.db): Promise<boolean> {
    const row = await q
      .selectFrom("api_power_badge_runs")
      .select("id")
      .where("slot", "=", slot)
      .executeTakeFirst();
    return row !== undefined;
  }

  lastBadgeRun() {
    return this.db
      .selectFrom("api_power_badge_runs")
      .selectAll()
      .orderBy("ran_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
  }

  /** Replaces the rule's result and records the run. */
  async replaceComputedBadges(
    trx: Executor,
    fids: number[],
    slot: number | null,
    ranAt: number,
  ): Promise<void> {
    await trx.deleteFrom("api_power_badge_computed").execute();
    for (let i = 0; i < fids.length; i += 500) {
      const chunk = fids.slice(i, i + 500);
      await trx
        .insertInto("api_power_badge_computed")
        .values(chunk.map((fid) => ({ fid })))
        .execute();
    }
    await trx
      .insertInto("api_power_badge_runs")
      .values({ slot, ran_at: ranAt, computed_count: fids.length })
      .execute();
  }

  // Sponsors

  sponsorCredits(fid: number, q: Executor = this.db): Promise<number | undefined> {
    return q
      .selectFrom("api_sponsors")
      .select("credits")
      .where("fid", "=", fid)
      .executeTakeFirst()
      .then((row) => row?.credits);
  }

  async setSponsorCredits(trx: Executor, fid: number, credits: number, at: number): Promise<void> {
    const value = { credits, updated_at: at };
    await trx
      .insertInto("api_sponsors")
      .values({ fid, ...value })
      .onConflict((oc) => oc.column("fid").doUpdateSet(value))
      .execute();
  }

  /** Takes `amount` credits if the sponsor has them; returns whether it did. */
  async chargeSponsor(trx: Executor, fid: number, amount: number, at: number): Promise<boolean> {
    const updated = await trx
      .updateTable("api_sponsors")
      .set((eb) => ({ credits: eb("credits", "-", amount), updated_at: at }))
      .where("fid", "=", fid)
      .where("credits", ">=", amount)
      .returning("fid")
      .executeTakeFirst();
    return updated !== undefined;
  }

  /** Gives back credits an undone approval took. */
  async refundSponsor(trx: Executor, fid: number, amount: number, at: number): Promise<void> {
    await trx
      .updateTable("api_sponsors")
      .set((eb) => ({ credits: eb("credits", "+", amount), updated_at: at }))
      .where("fid", "=", fid)
      .execute();
  }

  // Signed key requests

  async insertKeyRequest(
    trx: Executor,
    row: Insertable<ApiTables["api_signed_key_requests"]>,
  ): Promise<void> {
    await trx.insertInto("api_signed_key_requests").values(row).execute();
  }

  getKeyRequest(token: string, q: Executor = this.db): Promise<KeyRequestRow | undefined> {
    return q.selectFrom("api_signed_key_requests").selectAll().where("token", "=", token).executeTakeFirst();
  }

  /** The request made earlier from the same signed {requestFid, key, deadline}, if any. */
  sameKeyRequest(
    trx: Executor,
    request: { request_fid: number; key: string; deadline: number; signature: string },
  ): Promise<KeyRequestRow | undefined> {
    return trx
      .selectFrom("api_signed_key_requests")
      .selectAll()
      .where("request_fid", "=", request.request_fid)
      .where("key", "=", request.key)
      .where("deadline", "=", request.deadline)
      .where("signature", "=", request.signature)
      .executeTakeFirst();
  }

  /** Deletes requests whose deadline is before `before`, except those waiting for the chain. */
  async deleteKeyRequestsBefore(before: number): Promise<number> {
    const deleted = await this.db
      .deleteFrom("api_signed_key_requests")
      .where("deadline", "<", before)
      .where("state", "in", ["pending", "completed"])
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  keyRequestsIn(state: KeyRequestState): Promise<KeyRequestRow[]> {
    return this.db.selectFrom("api_signed_key_requests").selectAll().where("state", "=", state).execute();
  }

  /** Moves a request on only if it is still in `from`; returns whether it did. */
  async moveKeyRequest(
    trx: Executor,
    token: string,
    from: KeyRequestState,
    change: Updateable<ApiTables["api_signed_key_requests"]>,
  ): Promise<boolean> {
    const updated = await trx
      .updateTable("api_signed_key_requests")
      .set(change)
      .where("token", "=", token)
      .where("state", "=", from)
      .returning("token")
      .executeTakeFirst();
    return updated !== undefined;
  }

  async gatewayNonce(custody: string, q: Executor = this.db): Promise<number> {
    const row = await q
      .selectFrom("api_gateway_nonces")
      .select("nonce")
      .where("custody", "=", custody.toLowerCase())
      .executeTakeFirst();
    return row?.nonce ?? 0;
  }

  /** Gives `nonce` back if nothing consumed a later one meanwhile (then the wallet fetches a new one). */
  async restoreGatewayNonce(trx: Executor, custody: string, nonce: number): Promise<void> {
    await trx
      .updateTable("api_gateway_nonces")
      .set({ nonce })
      .where("custody", "=", custody.toLowerCase())
      .where("nonce", "=", nonce + 1)
      .execute();
  }

  /** Consumes `nonce` if it is still the current one; returns whether it was. */
  async consumeGatewayNonce(trx: Executor, custody: string, nonce: number): Promise<boolean> {
    const address = custody.toLowerCase();
    await trx
      .insertInto("api_gateway_nonces")
      .values({ custody: address, nonce: 0 })
      .onConflict((oc) => oc.column("custody").doNothing())
      .execute();
    const updated = await trx
      .updateTable("api_gateway_nonces")
      .set({ nonce: nonce + 1 })
      .where("custody", "=", address)
      .where("nonce", "=", nonce)
      .returning("custody")
      .executeTakeFirst();
    return updated !== undefined;
  }
}
