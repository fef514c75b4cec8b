/**
 * The demo world `castnet seed demo` builds, as data: who exists, whom they follow, and the client
 * API's channels, actions and blocks (what they cast and react to is in casts.ts). Accounts are
 * named, never numbered, so the world fits a stack that already has fids of its own. The modules
 * beside it (accounts.ts, hub.ts, clientApi.ts) make it real.
 */
import { MessageType } from "../../protocol/generated/message.js";

export interface DemoAccount {
  /** The keystore name, and the name registered at the registry. */
  name: string;
  display: string;
  bio: string;
  /** Accounts this one follows. */
  follows: string[];
  /** Verifies an Ethereum address (a key derived like its others). */
  verifies?: boolean;
}

export interface DemoChannel {
  id: string;
  name: string;
  description: string;
  lead: string;
  moderators?: string[];
  publicCasting?: boolean;
  externalLink?: { title: string; url: string };
  /** The parent URL its casts carry; HOST/channel/<id> unless given. */
  url?: string;
  ageDays: number;
  followers: string[];
}

export interface DemoAction {
  type: "cast" | "composer";
  name: string;
  icon: string;
  description: string;
  path: string;
  post?: boolean;
  image?: boolean;
  installedBy: string[];
  /** Rank in the featured list (composer actions). */
  featured?: number;
}

export const HOST = "https://demo.example";

export const ACCOUNTS: DemoAccount[] = [
  {
    name: "ana",
    display: "Ana Ruiz",
    bio: "Builds clients. Coffee first.",
    follows: ["ben", "cleo", "dax", "eli", "fay"],
    verifies: true,
  },
  {
    name: "ben",
    display: "Ben Okafor",
    bio: "Protocol nerd, weekend climber.",
    follows: ["ana", "cleo", "gus"],
    verifies: true,
  },
  { name: "cleo", display: "Cleo Marsh", bio: "Photos of small things.", follows: ["ana", "ben", "hana"] },
  { name: "dax", display: "Dax Lind", bio: "Writes about music and maps.", follows: ["ana", "ivo"] },
  { name: "eli", display: "Eli Stone", bio: "Reading three books at once.", follows: ["ana", "ben", "jun"] },
  { name: "fay", display: "Fay Chen", bio: "Onchain art, offchain tea.", follows: ["cleo", "kai"] },
  { name: "gus", display: "Gus Moreau", bio: "Runs a tiny bakery and a tiny node.", follows: ["ana", "ben"] },
  { name: "hana", display: "Hana Sato", bio: "Design systems, bikes.", follows: ["cleo", "ana", "lou"] },
  { name: "ivo", display: "Ivo Petrov", bio: "Backend by day, synths by night.", follows: ["dax", "ben"] },
  { name: "jun", display: "Jun Park", bio: "Learning in public.", follows: ["ana", "eli", "ben", "cleo"] },
  { name: "kai", display: "Kai Nilsen", bio: "Collector. Mostly of stickers.", follows: ["fay", "ana"] },
  { name: "lou", display: "Lou Bell", bio: "Makes apps for friends.", follows: ["hana", "ana", "ben"] },
];

export const CHANNELS: DemoChannel[] = [
  {
    id: "welcome",
    name: "Welcome",
    description: "Say hello, ask anything about getting started.",
    lead: "ana",
    moderators: ["ana", "ben"],
    publicCasting: true,
    ageDays: 120,
    followers: ["ana", "ben", "cleo", "dax", "eli", "fay", "gus", "hana", "ivo", "jun", "kai", "lou"],
  },
  {
    id: "dev",
    name: "Builders",
    description: "Apps, frames and clients on the protocol. Show what you are building.",
    lead: "ben",
    moderators: ["cleo"],
    publicCasting: true,
    externalLink: { title: "Protocol docs", url: `${HOST}/docs` },
    ageDays: 100,
    followers: ["ben", "ana", "ivo", "lou", "jun", "hana", "gus"],
  },
  {
    id: "music",
    name: "Music",
    description: "What are you listening to?",
    lead: "dax",
    ageDays: 80,
    followers: ["dax", "ivo", "kai", "eli"],
  },
  {
    id: "photography",
    name: "Photography",
    description: "Share your shots. Credit the photographer.",
    lead: "cleo",
    moderators: ["cleo", "hana"],
    publicCasting: false,
    ageDays: 60,
    followers: ["cleo", "hana", "fay"],
  },
  {
    id: "books",
    name: "Books",
    description: "Reading lists, reviews and quotes.",
    lead: "eli",
    ageDays: 30,
    followers: ["eli", "jun"],
  },
  {
    id: "onchain-art",
    name: "Onchain art",
    description: "Collectors and artists of one collection.",
    url: "chain://eip155:1/erc721:0x000000000000000000000000000000000000a17e",
    lead: "fay",
    ageDays: 10,
    followers: ["fay", "kai"],
  },
];

export const BLOCKS: { blocker: string; blocked: string; daysAgo: number }[] = [
  { blocker: "cleo", blocked: "kai", daysAgo: 2 },
  { blocker: "gus", blocked: "lou", daysAgo: 9 },
  { blocker: "ana", blocked: "ivo", daysAgo: 15 },
];

export const ACTIONS: DemoAction[] = [
  {
    type: "cast",
    name: "Upthumb",
    icon: "thumbsup",
    description: "Give a cast an upthumb; see the most upthumbed casts of the week.",
    path: "actions/upthumb",
    post: true,
    installedBy: ["ana", "ben", "cleo", "dax", "eli", "fay", "gus", "hana", "ivo"],
  },
  {
    type: "cast",
    name: "Save for later",
    icon: "bookmark",
    description: "Bookmark a cast and read it later in your list.",
    path: "actions/save",
    installedBy: ["ana", "jun", "kai", "lou"],
  },
  {
    type: "cast",
    name: "Check author",
    icon: "shield-check",
    description: "See how long the author has been around and who follows them.",
    path: "actions/check",
    installedBy: ["ben", "gus"],
  },
  {
    type: "composer",
    name: "Poll",
    icon: "list-ordered",
    description: "Add a poll with up to four options to your cast.",
    path: "composer/poll",
    image: true,
    installedBy: ["ana", "ben", "cleo", "eli", "jun", "lou", "hana"],
    featured: 2,
  },
  {
    type: "composer",
    name: "Schedule",
    icon: "calendar",
    description: "Write now, cast later at the time you pick.",
    path: "composer/schedule",
    image: true,
    installedBy: ["ana", "dax", "ivo"],
    featured: 1,
  },
  {
    type: "composer",
    name: "Image search",
    icon: "image",
    description: "Find a picture and embed it in your cast.",
    path: "composer/images",
    image: true,
    installedBy: ["cleo"],
  },
];

/** The operator's word over the badge rule: a badge it would not give, and one it takes back. */
export const BADGE_OVERRIDES: { name: string; badge: "grant" | "revoke" }[] = [
  { name: "lou", badge: "grant" },
  { name: "cleo", badge: "revoke" },
];

/** Signed up as a sponsor of signed key requests, with these credits. */
export const SPONSOR = { name: "lou", credits: 1000 };

/** The app with a signed key request pending (for a user to approve), so that its reads answer. */
export const KEY_REQUEST_APP = "lou";

/**
 * A key added by message (KEY_ADD) rather than on chain: `app` requested it for `name`, to cast and
 * react only, for `ttlSeconds` after each use. The account keeps signing with its on-chain key.
 */
export const GASLESS_SIGNER = {
  name: "kai",
  app: "lou",
  scopes: [MessageType.CAST_ADD, MessageType.REACTION_ADD],
  ttlSeconds: 30 * 24 * 3600,
};

/** Storage units each account rents. */
export const STORAGE_UNITS = 1;

/**
 * One storage loan (LEND_STORAGE): lou, who makes apps, lends jun units of the type castnet's rents
 * make. A lender keeps a unit of that type spare and, on mainnet (the stack's default network),
 * rents at least 1000 of it, so lou rents `lenderUnits` in all.
 */
export const LOAN = {
  lender: "lou",
  borrower: "jun",
  units: 2,
  unitType: "2024",
  lenderUnits: 1001,
} as const;
