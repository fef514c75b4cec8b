/**
 * The demo's channels with their followers, blocks, actions with installs, a sponsor, and the power
 * badges its reactions earn, through the client API's operator routes. Those writes are idempotent
 * (a second follow, block or install changes nothing); creations are read back first.
 */
import type { Context } from "../context.js";
import { CliError, type RequestOptions, request } from "../http/request.js";
import { type Actor, requestKey } from "../writes.js";
import { channelUrl } from "./hub.js";
import type { Tally } from "./tally.js";
import {
  ACTIONS,
  BADGE_OVERRIDES,
  BLOCKS,
  CASTS,
  CHANNELS,
  HOST,
  KEY_REQUEST_APP,
  SPONSOR,
} from "./world.js";

type Actors = Map<string, Actor>;

const DAY = 86_400;

/** A call to one of the client API's operator routes, with the admin token when one is set. */
function operator<T>(context: Context, path: string, options: RequestOptions = {}): Promise<T> {
  return request<{ result: T }>("client API", context.api.base, path, {
    ...options,
    headers: context.operatorHeaders,
  }).then((answer) => answer?.result);
}

const fidOf = (actors: Actors, name: string) => {
  const actor = actors.get(name);
  if (!actor) throw new Error(`the demo world names an unknown account "${name}"`);
  return actor.account.fid;
};

export async function seedChannels(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const today = Math.floor(Date.now() / 1000);
  const existing = new Set((await context.api.channels()).channels.map((c) => c.id));
  for (const channel of CHANNELS) {
    const there = existing.has(channel.id);
    if (!there)
      await operator(context, "/v1/admin/channels", {
        body: {
          id: channel.id,
          url: channelUrl(channel),
          name: channel.name,
          description: channel.description,
          imageUrl: `${HOST}/channel/${channel.id}/avatar.png`,
          leadFid: fidOf(actors, channel.lead),
          ...(channel.moderators && {
            moderatorFid: fidOf(actors, channel.moderators[0]!),
            moderatorFids: channel.moderators.map((name) => fidOf(actors, name)),
          }),
          ...(channel.publicCasting !== undefined && { publicCasting: channel.publicCasting }),
          ...(channel.externalLink && { externalLink: channel.externalLink }),
          createdAt: today - channel.ageDays * DAY,
        },
      });
    tally.one("channels", !there);
    const followers = await operatorFollowers(context, channel.id);
    for (const name of channel.followers) {
      const fid = fidOf(actors, name);
      if (!followers.has(fid)) await context.api.follow(channel.id, fid);
      tally.one("channel follows", !followers.has(fid));
    }
  }
}

async function operatorFollowers(context: Context, channelId: string): Promise<Set<number>> {
  const answer = await request<{ result: { fids: number[] } }>(
    "client API",
    context.api.base,
    `/v1/channel-followers?channelId=${encodeURIComponent(channelId)}&limit=100`,
  );
  return new Set(answer.result.fids);
}

export async function seedBlocks(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const { blockedUsers } = (
    await request<{ result: { blockedUsers: { blockerFid: number; blockedFid: number }[] } }>(
      "client API",
      context.api.base,
      "/v1/blocked-users?limit=100",
    )
  ).result;
  const today = Math.floor(Date.now() / 1000);
  for (const { blocker, blocked, daysAgo } of BLOCKS) {
    const [blockerFid, blockedFid] = [fidOf(actors, blocker), fidOf(actors, blocked)];
    const there = blockedUsers.some((b) => b.blockerFid === blockerFid && b.blockedFid === blockedFid);
    if (!there)
      await operator(context, `/v1/admin/blocks/${blockerFid}/${blockedFid}`, {
        method: "PUT",
        body: { createdAt: today - daysAgo * DAY },
      });
    tally.one("blocks", !there);
  }
}

interface ActionRecord {
  id: number;
  type: string;
  actionUrl: string;
}

export async function seedActions(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const { actions } = await operator<{ actions: ActionRecord[] }>(context, "/v1/admin/actions");
  for (const action of ACTIONS) {
    const actionUrl = `${HOST}/${action.path}/metadata`;
    let record = actions.find((a) => a.type === action.type && a.actionUrl === actionUrl);
    const there = record !== undefined;
    if (!record) {
      record = (
        await operator<{ action: ActionRecord }>(context, "/v1/admin/actions", {
          body: {
            type: action.type,
            name: action.name,
            icon: action.icon,
            description: action.description,
            aboutUrl: `${HOST}/${action.path}`,
            actionUrl,
            ...(action.post && { postUrl: `${HOST}/${action.path}` }),
            ...(action.image && { imageUrl: `${HOST}/${action.path}/logo.png` }),
          },
        })
      ).action;
      if (action.featured !== undefined)
        await operator(context, `/v1/admin/actions/${record.id}/featured`, {
          method: "PUT",
          body: { rank: action.featured },
        });
    }
    tally.one("actions", !there);
    // Installs are idempotent, and the read does not say who installed: each is put again.
    for (const name of action.installedBy)
      await operator(context, `/v1/admin/actions/${record.id}/installs/${fidOf(actors, name)}`, {
        method: "PUT",
      });
    tally.count("installs", there ? 0 : action.installedBy.length, action.installedBy.length);
  }
}

export async function seedSponsor(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const fid = fidOf(actors, SPONSOR.name);
  const sponsor = await request<{ result: unknown } | undefined>(
    "client API",
    context.api.base,
    `/v1/admin/sponsors/${fid}`,
    {
      missingIsUndefined: true,
      headers: context.operatorHeaders,
    },
  );
  // Credits once: seeding again never refills what approvals spent.
  if (sponsor === undefined)
    await operator(context, `/v1/admin/sponsors/${fid}`, {
      method: "PUT",
      body: { credits: SPONSOR.credits },
    });
  tally.one("sponsors", sponsor === undefined);
}

interface BadgeState {
  rule: { minReactors: number };
  computed: number[];
  grants: number[];
  revocations: number[];
}

/**
 * The authors the badge rule grants a badge for the demo's reactions, by the rule the client API
 * runs; the rule is run now (it runs weekly) unless its last result already has them all.
 */
export async function seedPowerBadges(context: Context, actors: Actors, tally: Tally): Promise<void> {
  const state = await operator<BadgeState>(context, "/v1/admin/power-badges");
  const reactors = new Map<string, Set<string>>();
  for (const cast of CASTS)
    for (const name of [...(cast.likedBy ?? []), ...(cast.recastBy ?? [])])
      if (name !== cast.by) reactors.set(cast.by, (reactors.get(cast.by) ?? new Set()).add(name));
  const earners = [...reactors]
    .filter(([, who]) => who.size >= state.rule.minReactors)
    .map(([name]) => fidOf(actors, name));
  const missing = earners.some((fid) => !state.computed.includes(fid));
  if (missing) await operator(context, "/v1/admin/power-badges/recalculate", { method: "POST", body: {} });
  tally.note("power badges", missing ? earners.length : 0, earners.length);
  for (const { name, badge } of BADGE_OVERRIDES) {
    const fid = fidOf(actors, name);
    const there = (badge === "grant" ? state.grants : state.revocations).includes(fid);
    if (!there) await operator(context, `/v1/admin/power-badges/${fid}`, { method: "PUT", body: { badge } });
    tally.one("badge overrides", !there);
  }
}

/**
 * A signed key request of the demo app that waits for a user's approval. Requests expire (a day after
 * their deadline they are gone), so a new one is made when none of the app's is readable any more.
 */
export async function seedKeyRequest(context: Context, tally: Tally): Promise<void> {
  const tokens = Object.entries(context.keystore().requestedKeys())
    .filter(([, key]) => key.app === KEY_REQUEST_APP)
    .map(([token]) => token);
  let readable = false;
  for (const token of tokens) {
    readable = await context.api.keyRequest(token).then(
      () => true,
      (error: unknown) => {
        if (error instanceof CliError && error.status === 404) return false;
        throw error;
      },
    );
    if (readable) break;
  }
  if (!readable) await requestKey(context, KEY_REQUEST_APP);
  tally.one("key requests", !readable);
}
