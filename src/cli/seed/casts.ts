/** The demo's casts, and who likes and recasts them: part of the world (world.ts) kept apart for length. */
import { HOST } from "./world.js";

export interface DemoCast {
  /** How other entries of the world name this cast. */
  id: string;
  by: string;
  /** `@name` marks where each of `mentions` goes. */
  text: string;
  mentions?: string[];
  replyTo?: string;
  /** A channel id of CHANNELS: the cast carries its URL. */
  channel?: string;
  embeds?: string[];
  hoursAgo: number;
  likedBy?: string[];
  recastBy?: string[];
}

export const CASTS: DemoCast[] = [
  {
    id: "ana-hello",
    by: "ana",
    text: "gm! castnet is up and the whole stack fits on a laptop",
    hoursAgo: 30,
    likedBy: ["ben", "cleo", "dax", "eli", "fay", "jun"],
    recastBy: ["ben", "lou"],
  },
  {
    id: "ben-reply",
    by: "ben",
    text: "@ana the devchain mining a block a second is oddly calming",
    mentions: ["ana"],
    replyTo: "ana-hello",
    hoursAgo: 29,
    likedBy: ["ana", "ivo"],
  },
  {
    id: "ana-thread",
    by: "ana",
    text: "a thread on what a hub does, in three casts. first: it checks every signature",
    channel: "dev",
    hoursAgo: 26,
    likedBy: ["jun", "lou", "hana"],
  },
  {
    id: "ana-thread-2",
    by: "ana",
    text: "second: it keeps the newest message per key and resolves conflicts the same way everywhere",
    replyTo: "ana-thread",
    hoursAgo: 26,
    likedBy: ["jun"],
  },
  {
    id: "ben-signers",
    by: "ben",
    text: "PSA: a signer is just an Ed25519 key your custody address approved. Rotate them.",
    channel: "dev",
    embeds: [`${HOST}/docs/signers`],
    hoursAgo: 22,
    likedBy: ["ana", "cleo", "gus", "ivo", "jun", "lou"],
    recastBy: ["ana", "jun"],
  },
  {
    id: "cleo-photo",
    by: "cleo",
    text: "morning light on the harbour",
    channel: "photography",
    embeds: [`${HOST}/images/harbour.jpg`],
    hoursAgo: 20,
    likedBy: ["ana", "ben", "fay", "hana", "kai"],
    recastBy: ["hana"],
  },
  {
    id: "dax-music",
    by: "dax",
    text: "on repeat today: field recordings from a train station. @ivo you'd like it",
    mentions: ["ivo"],
    channel: "music",
    hoursAgo: 18,
    likedBy: ["ivo", "kai"],
  },
  {
    id: "ivo-reply",
    by: "ivo",
    text: "send the link, I have a synth patch that wants a train in it",
    replyTo: "dax-music",
    hoursAgo: 17,
    likedBy: ["dax"],
  },
  {
    id: "eli-books",
    by: "eli",
    text: "finished a book on the history of postal systems. protocols all the way down",
    channel: "books",
    hoursAgo: 15,
    likedBy: ["jun", "ana"],
  },
  {
    id: "fay-art",
    by: "fay",
    text: "minted a small piece about tide tables",
    channel: "onchain-art",
    embeds: [`${HOST}/art/tides`],
    hoursAgo: 12,
    likedBy: ["kai", "cleo"],
    recastBy: ["kai"],
  },
  {
    id: "gus-bread",
    by: "gus",
    text: "sourdough number 212. the node stayed in sync the whole time it proofed",
    embeds: [`${HOST}/images/bread.jpg`],
    hoursAgo: 10,
    likedBy: ["ana", "ben"],
  },
  {
    id: "hana-welcome",
    by: "hana",
    text: "new here: hi @cleo and @lou, thanks for the invite",
    mentions: ["cleo", "lou"],
    channel: "welcome",
    hoursAgo: 8,
    likedBy: ["cleo", "lou", "ana"],
  },
  {
    id: "jun-question",
    by: "jun",
    text: "how do names move between fids? asking for a friend who typed the wrong one",
    channel: "welcome",
    hoursAgo: 6,
    likedBy: ["ben"],
  },
  {
    id: "ben-answer",
    by: "ben",
    text: "@jun the registry signs every transfer; an admin can move a name, otherwise release and claim",
    mentions: ["jun"],
    replyTo: "jun-question",
    hoursAgo: 5,
    likedBy: ["jun", "eli", "ana"],
  },
  {
    id: "kai-stickers",
    by: "kai",
    text: "sticker count: 4,096. a round number at last",
    hoursAgo: 4,
    likedBy: ["fay"],
  },
  {
    id: "lou-app",
    by: "lou",
    text: "shipped a tiny app that shows who reacted first. built on the client API in an evening",
    channel: "dev",
    embeds: [`${HOST}/apps/first`],
    hoursAgo: 2,
    likedBy: ["ana", "ben", "hana"],
    recastBy: ["hana"],
  },
  {
    id: "cleo-reply",
    by: "cleo",
    text: "@lou it's lovely. can it show recasts too?",
    mentions: ["lou"],
    replyTo: "lou-app",
    hoursAgo: 1,
    likedBy: ["lou"],
  },
  {
    id: "ana-latest",
    by: "ana",
    text: "three things I learned today, a thread tomorrow",
    hoursAgo: 0,
  },
];

/** Likes of pages rather than casts. */
export const URL_LIKES: { by: string; url: string }[] = [
  { by: "jun", url: `${HOST}/apps/first` },
  { by: "hana", url: `${HOST}/apps/first` },
  { by: "ivo", url: `${HOST}/docs/signers` },
];
