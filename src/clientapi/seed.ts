import type { NewAction } from "./actions.js";
import type { NewChannel } from "./channels.js";
import { ClientApiError } from "./errors.js";
import type { ClientApiService } from "./service.js";

const DAY = 86_400;
const HOST = "https://demo.example";

const CHANNELS: (Omit<NewChannel, "url" | "imageUrl" | "createdAt"> & { ageDays: number; url?: string })[] = [
  {
    id: "welcome",
    name: "Welcome",
    description: "Say hello, ask anything about getting started.",
    leadFid: 1,
    moderatorFids: [1, 2],
    publicCasting: true,
    ageDays: 120,
  },
  {
    id: "dev",
    name: "Builders",
    description: "Apps, frames and clients on the protocol. Show what you are building.",
    leadFid: 2,
    moderatorFid: 3,
    moderatorFids: [3],
    publicCasting: true,
    externalLink: { title: "Protocol docs", url: `${HOST}/docs` },
    ageDays: 100,
  },
  {
    id: "music",
    name: "Music",
    description: "What are you listening to?",
    leadFid: 4,
    ageDays: 80,
  },
  {
    id: "photography",
    name: "Photography",
    description: "Share your shots. Credit the photographer.",
    leadFid: 5,
    moderatorFids: [5, 6],
    publicCasting: false,
    ageDays: 60,
  },
  { id: "books", name: "Books", description: "Reading lists, reviews and quotes.", leadFid: 6, ageDays: 30 },
  {
    id: "onchain-art",
    name: "Onchain art",
    description: "Collectors and artists of one collection.",
    url: "chain://eip155:1/erc721:0x000000000000000000000000000000000000a17e",
    leadFid: 7,
    ageDays: 10,
  },
];

const CAST_ACTIONS: NewAction[] = [
  {
    type: "cast",
    name: "Upthumb",
    icon: "thumbsup",
    description: "Give a cast an upthumb; see the most upthumbed casts of the week.",
    aboutUrl: `${HOST}/actions/upthumb`,
    actionUrl: `${HOST}/actions/upthumb/metadata`,
    postUrl: `${HOST}/actions/upthumb`,
  },
  {
    type: "cast",
    name: "Save for later",
    icon: "bookmark",
    description: "Bookmark a cast and read it later in your list.",
    aboutUrl: `${HOST}/actions/save`,
    actionUrl: `${HOST}/actions/save/metadata`,
  },
  {
    type: "cast",
    name: "Check author",
    icon: "shield-check",
    description: "See how long the author has been around and who follows them.",
    aboutUrl: `${HOST}/actions/check`,
    actionUrl: `${HOST}/actions/check/metadata`,
  },
];

const COMPOSER_ACTIONS: NewAction[] = [
  {
    type: "composer",
    name: "Poll",
    icon: "list-ordered",
    description: "Add a poll with up to four options to your cast.",
    aboutUrl: `${HOST}/composer/poll`,
    actionUrl: `${HOST}/composer/poll/metadata`,
    imageUrl: `${HOST}/composer/poll/logo.png`,
  },
  {
    type: "composer",
    name: "Schedule",
    icon: "calendar",
    description: "Write now, cast later at the time you pick.",
    aboutUrl: `${HOST}/composer/schedule`,
    actionUrl: `${HOST}/composer/schedule/metadata`,
    imageUrl: `${HOST}/composer/schedule/logo.png`,
  },
  {
    type: "composer",
    name: "Image search",
    icon: "image",
    description: "Find a picture and embed it in your cast.",
    aboutUrl: `${HOST}/composer/images`,
    actionUrl: `${HOST}/composer/images/metadata`,
    imageUrl: `${HOST}/composer/images/logo.png`,
  },
];

/** How many of fids 1..40 follow each channel, in CHANNELS order. */
const FOLLOWERS = [40, 28, 17, 12, 9, 5];
/** Installs per action, in CAST_ACTIONS then COMPOSER_ACTIONS order. */
const INSTALLS = [31, 12, 7, 22, 9, 4];
const FEATURED = ["Schedule", "Poll"];
const BLOCKS: [number, number, number][] = [
  [3, 17, 2],
  [7, 12, 9],
  [1, 33, 15],
  [12, 7, 21],
];
const POWER_BADGES = [1, 2, 3, 5, 8, 13];
const SPONSOR = { fid: 1, credits: 1000 };

/**
 * A small, believable data set so that a fresh `castnet start --seed demo` answers every read with
 * something. Idempotent: what exists already (by channel id, action URL, follow, block) is left alone,
 * so restarting with the flag changes nothing and never resets a sponsor's balance.
 */
export async function seedDemo(service: ClientApiService, now: () => number): Promise<void> {
  const { channels, follows, actions, blocks, sponsors, powerBadges } = service;
  const today = Math.floor(now() / 1000);

  const existingChannels = new Set((await channels.all()).map((channel) => channel.id));
  for (const [index, { ageDays, url, ...channel }] of CHANNELS.entries()) {
    if (!existingChannels.has(channel.id)) {
      await channels.create({
        ...channel,
        url: url ?? `${HOST}/channel/${channel.id}`,
        imageUrl: `${HOST}/channel/${channel.id}/avatar.png`,
        createdAt: today - ageDays * DAY,
      });
    }
    const followers = FOLLOWERS[index] ?? 0;
    for (let fid = 1; fid <= followers; fid++) {
      // Spread over the channel's life, newer fids following later.
      const followedAt = today - Math.floor((ageDays * DAY * (followers - fid + 1)) / (followers + 1));
      await follows.follow(channel.id, fid, followedAt);
    }
  }

  const existingActions = new Map(
    (await actions.list()).map((action) => [`${action.type} ${action.actionUrl}`, action]),
  );
  for (const [index, action] of [...CAST_ACTIONS, ...COMPOSER_ACTIONS].entries()) {
    let record = existingActions.get(`${action.type} ${action.actionUrl}`);
    if (!record) {
      record = await actions.register(action);
      const featured = FEATURED.indexOf(action.name);
      if (action.type === "composer" && featured >= 0) await actions.feature(record.id, featured + 1);
    }
    for (let fid = 1; fid <= (INSTALLS[index] ?? 0); fid++) await actions.install(record.id, fid);
  }

  for (const [blocker, blocked, daysAgo] of BLOCKS)
    await blocks.block(blocker, blocked, today - daysAgo * DAY);

  const state = await powerBadges.state();
  for (const fid of POWER_BADGES) {
    if (!state.grants.includes(fid) && !state.revocations.includes(fid)) await powerBadges.grant(fid);
  }

  const signedUp = await sponsors.get(SPONSOR.fid).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ClientApiError && error.code === "not_found") return false;
      throw error;
    },
  );
  if (!signedUp) await sponsors.setCredits(SPONSOR.fid, SPONSOR.credits);
}
