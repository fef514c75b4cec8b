/**
 * The demo's names, profiles, casts, reactions, follows and verifications, written as each account
 * would write them. Everything is read back first, so that what is already there is not written again
 * (a second message would replace the first with a new hash and a new event).
 */
import { privateKeyToAccount } from "viem/accounts";
import { UserDataType } from "../../protocol/generated/message.js";
import type { Context } from "../context.js";
import type { HubPage } from "../http/hub.js";
import { CliError, request } from "../http/request.js";
import { mention, type CastTarget } from "../targets.js";
import {
  type Actor,
  follow,
  lendStorage,
  postCast,
  react,
  registerName,
  setUserData,
  setUsername,
  verifyAddress,
} from "../writes.js";
import { demoKey, until } from "./accounts.js";
import type { Tally } from "./tally.js";
import { CASTS, URL_LIKES } from "./casts.js";
import { avatarPath } from "../../explorer/avatar.js";
import { ACCOUNTS, CHANNELS, GASLESS_SIGNER, HOST, LOAN } from "./world.js";

type Actors = Map<string, Actor>;

const HOUR_MS = 3_600_000;

/** Every message of a paged hub read of one fid (the demo's fit in one page). */
async function messagesOf(context: Context, path: string): Promise<HubPage["messages"]> {
  const page = await request<HubPage>("hub", context.hub.base, `${path}&pageSize=1000`);
  return page.messages;
}

function actorOf(actors: Actors, name: string): Actor {
  const actor = actors.get(name);
  if (!actor) throw new Error(`the demo world names an unknown account "${name}"`);
  return actor;
}

export async function seedNames(context: Context, actors: Actors, tally: Tally): Promise<void> {
  for (const { name } of ACCOUNTS) {
    const actor = actorOf(actors, name);
    const held = await context.registry.current(name);
    if (held === undefined) {
      await registerName(context, actor, name);
      tally.one("names", true);
      continue;
    }
    if (held.to !== actor.account.fid)
      throw new CliError(`the name ${name} is held by fid ${held.to}, not by the demo's ${name}`);
    const username = (await context.hub.userDataByFid(actor.account.fid)).messages.find(
      (m) => m.data.userDataBody?.type === "USER_DATA_TYPE_USERNAME",
    );
    const missing = username?.data.userDataBody?.value !== name;
    if (missing) await setUsername(context, actor, name);
    tally.one("names", missing);
  }
}

export async function seedProfiles(context: Context, actors: Actors, tally: Tally): Promise<void> {
  for (const { name, display, bio } of ACCOUNTS) {
    const actor = actorOf(actors, name);
    const fields: [UserDataType, string, string][] = [
      [UserDataType.DISPLAY, "USER_DATA_TYPE_DISPLAY", display],
      [UserDataType.BIO, "USER_DATA_TYPE_BIO", bio],
      // The stack's own generated avatar, so that the demo's faces show with no network.
      [UserDataType.PFP, "USER_DATA_TYPE_PFP", `${context.api.base}${avatarPath(actor.account.fid)}`],
      [UserDataType.URL, "USER_DATA_TYPE_URL", `${HOST}/@${name}`],
    ];
    const have = new Map(
      (await context.hub.userDataByFid(actor.account.fid)).messages.map((m) => [
        m.data.userDataBody?.type,
        m.data.userDataBody?.value,
      ]),
    );
    let made = 0;
    for (const [type, json, value] of fields) {
      if (have.get(json) === value) continue;
      await setUserData(context, actor, type, value);
      made++;
    }
    tally.one("profiles", made > 0);
  }
}

/** Posts the casts that are not there yet; answers every demo cast's id by its world id. */
export async function seedCasts(
  context: Context,
  actors: Actors,
  tally: Tally,
): Promise<Map<string, CastTarget>> {
  const ids = new Map<string, CastTarget>();
  const now = Date.now();
  const existing = new Map<number, HubPage["messages"]>();
  for (const [index, cast] of CASTS.entries()) {
    const actor = actorOf(actors, cast.by);
    const fid = actor.account.fid;
    if (!existing.has(fid)) existing.set(fid, (await context.hub.castsByFid(fid, 1000)).messages);
    const { text } = await mention(context, cast.text, cast.mentions ?? []);
    const parent = cast.replyTo === undefined ? undefined : ids.get(cast.replyTo);
    if (cast.replyTo !== undefined && parent === undefined)
      throw new Error(`the demo cast ${cast.id} answers ${cast.replyTo}, which comes after it`);
    const found = existing
      .get(fid)!
      .find(
        (m) => m.data.castAddBody?.text === text && m.data.castAddBody.parentCastId?.hash === parent?.hash,
      );
    let hash = found?.hash as `0x${string}` | undefined;
    if (hash === undefined) {
      const channel = CHANNELS.find((c) => c.id === cast.channel);
      const { message } = await postCast(context, actor, {
        text: cast.text,
        mentions: cast.mentions,
        replyTo: parent,
        channel: channel && channelUrl(channel),
        embeds: cast.embeds,
        // Older casts first, a second apart, so that the feed's order is the world's.
        at: now - cast.hoursAgo * HOUR_MS - (CASTS.length - index) * 1000,
      });
      hash = message.hash as `0x${string}`;
    }
    ids.set(cast.id, { fid, hash });
    tally.one("casts", found === undefined);
  }
  return ids;
}

export function channelUrl(channel: { id: string; url?: string }): string {
  return channel.url ?? `${HOST}/channel/${channel.id}`;
}

export async function seedReactions(
  context: Context,
  actors: Actors,
  casts: Map<string, CastTarget>,
  tally: Tally,
): Promise<void> {
  const wanted: { by: string; kind: "like" | "recast"; target: CastTarget | string }[] = [
    ...CASTS.flatMap((cast) => [
      ...(cast.likedBy ?? []).map((by) => ({ by, kind: "like" as const, target: casts.get(cast.id)! })),
      ...(cast.recastBy ?? []).map((by) => ({ by, kind: "recast" as const, target: casts.get(cast.id)! })),
    ]),
    ...URL_LIKES.map(({ by, url }) => ({ by, kind: "like" as const, target: url })),
  ];
  const existing = new Map<number, Set<string>>();
  const keyOf = (type: string, target: CastTarget | string | undefined) =>
    `${type} ${typeof target === "string" ? target : target?.hash}`;
  for (const { by, kind, target } of wanted) {
    const actor = actorOf(actors, by);
    const fid = actor.account.fid;
    if (!existing.has(fid)) {
      const reactions = await messagesOf(context, `/v1/reactionsByFid?fid=${fid}`);
      existing.set(
        fid,
        new Set(
          reactions.map((m) => {
            const body = (
              m.data as {
                reactionBody?: { type: string; targetCastId?: CastTarget; targetUrl?: string };
              }
            ).reactionBody;
            return keyOf(body?.type ?? "", body?.targetUrl ?? body?.targetCastId);
          }),
        ),
      );
    }
    const there = existing.get(fid)!.has(keyOf(`REACTION_TYPE_${kind.toUpperCase()}`, target));
    if (!there) await react(context, actor, kind, target);
    tally.one("reactions", !there);
  }
}

export async function seedFollows(context: Context, actors: Actors, tally: Tally): Promise<void> {
  for (const { name, follows } of ACCOUNTS) {
    const actor = actorOf(actors, name);
    const links = await messagesOf(context, `/v1/linksByFid?fid=${actor.account.fid}&link_type=follow`);
    const following = new Set(links.map((m) => m.data.linkBody?.targetFid));
    for (const target of follows) {
      const targetFid = actorOf(actors, target).account.fid;
      const there = following.has(targetFid);
      if (!there) await follow(context, actor, targetFid);
      tally.one("follows", !there);
    }
  }
}

export async function seedVerifications(context: Context, actors: Actors, tally: Tally): Promise<void> {
  for (const { name } of ACCOUNTS.filter((a) => a.verifies)) {
    const actor = actorOf(actors, name);
    const key = demoKey("address", name);
    const address = privateKeyToAccount(key).address.toLowerCase();
    const verified = await messagesOf(context, `/v1/verificationsByFid?fid=${actor.account.fid}`);
    const there = verified.some(
      (m) =>
        (m.data as { verificationAddAddressBody?: { address: string } }).verificationAddAddressBody
          ?.address === address,
    );
    if (!there) await verifyAddress(context, actor, key);
    tally.one("verifications", !there);
  }
}

interface UnitDetails {
  unitType: string;
  purchasedUnitSize: number;
  lentUnitSize: number;
  borrowedUnitSize: number;
}

/** The fid's units of the loan's type, as the hub counts them. */
async function loanUnitsOf(context: Context, fid: number): Promise<UnitDetails | undefined> {
  const limits = await request<{ unitDetails: UnitDetails[] }>(
    "hub",
    context.hub.base,
    `/v1/storageLimitsByFid?fid=${fid}`,
  );
  const name = `UNIT_TYPE_${LOAN.unitType.toUpperCase()}`;
  return limits.unitDetails.find((details) => details.unitType === name);
}

/**
 * The demo's loan. The hub lists no loans over HTTP, so the loan counts as there when the lender
 * lends, and the borrower borrows, at least its units of its type.
 */
export async function seedLoan(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const lender = actorOf(actors, LOAN.lender);
  const borrower = actorOf(actors, LOAN.borrower);
  const there =
    ((await loanUnitsOf(context, lender.account.fid))?.lentUnitSize ?? 0) >= LOAN.units &&
    ((await loanUnitsOf(context, borrower.account.fid))?.borrowedUnitSize ?? 0) >= LOAN.units;
  if (!there) {
    const fid = lender.account.fid;
    const rented = (await context.chain.getAccount(fid))!.storageUnits;
    if (rented < LOAN.lenderUnits) await context.chain.rentStorage(fid, LOAN.lenderUnits - rented);
    // The hub checks the loan against the rent it has merged, which follows the chain's blocks.
    await until(`the hub to see ${LOAN.lender}'s storage`, async () =>
      ((await loanUnitsOf(context, fid))?.purchasedUnitSize ?? 0) >= LOAN.lenderUnits ? true : undefined,
    );
    await lendStorage(context, lender, borrower.account.fid, LOAN.units, LOAN.unitType);
  }
  tally.one("loans", !there);
}

/** The demo's key added by message, unless the app's request for it is there already. */
export async function seedGaslessSigner(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const { name, app, scopes, ttlSeconds } = GASLESS_SIGNER;
  const account = actorOf(actors, name).account;
  const appAccount = actorOf(actors, app).account;
  const { signers } = await context.hub.signersByFid(account.fid);
  const present = signers.some(
    (s) => s.source === "SIGNER_SOURCE_OFFCHAIN" && s.requestFid === appAccount.fid,
  );
  if (!present) {
    const { addGaslessSigner } = await import("../gaslessSigner.js");
    await addGaslessSigner(context, { account, app: appAccount, scopes, ttl: ttlSeconds });
  }
  tally.one("gasless signers", !present);
}
