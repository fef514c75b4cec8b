/** What the user names on the command line, made into what messages carry: fids, cast ids, mentions. */
import type { Context } from "./context.js";
import { UsageError } from "../usageError.js";
import { CliError } from "./http/request.js";

export interface CastTarget {
  fid: number;
  hash: `0x${string}`;
}

const HASH = /^0x[0-9a-fA-F]{40}$/;

/** A message hash: 0x and 40 hex digits. */
export function parseHash(value: string): `0x${string}` {
  if (!HASH.test(value)) throw new UsageError(`"${value}" is not a message hash (0x and 40 hex digits)`);
  return value.toLowerCase() as `0x${string}`;
}

/** `<fid>:<hash>`, as `feed` and every printed cast show it. */
export function parseCastId(value: string): CastTarget {
  const match = /^(\d{1,15}):(.*)$/.exec(value);
  if (!match || Number(match[1]) < 1)
    throw new UsageError(`"${value}" is not a cast id: give <fid>:<hash>, as castnet feed prints them`);
  return { fid: Number(match[1]), hash: parseHash(match[2]!) };
}

/** A cast of one's own: its hash, or `<fid>:<hash>` as `feed --ids` prints it (the fid then says whose). */
export function parseOwnCast(value: string): { fid?: number; hash: `0x${string}` } {
  return value.includes(":") ? parseCastId(value) : { hash: parseHash(value) };
}

/** A CliError, saying so, when the hub holds no such cast (never cast, or removed). */
export async function assertCastExists(context: Context, target: CastTarget): Promise<void> {
  if ((await context.hub.castById(target.fid, target.hash)) === undefined)
    throw new CliError(
      `there is no cast ${target.fid}:${target.hash} (castnet feed ${target.fid} --ids lists that fid's casts)`,
    );
}

/** Channel ids as the client API makes them. */
const CHANNEL_ID = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
/** The parent URLs channels have: web pages, or FIP-2 chain:// URLs of on-chain assets. */
const PARENT_URL = /^(https?|chain):\/\/\S+$/i;

/** `--channel`: a URL as it is, or a channel's id (as `channel list` shows it) made into its URL. */
export async function resolveChannel(context: Context, value: string): Promise<string> {
  if (PARENT_URL.test(value) && URL.canParse(value)) return value;
  if (!CHANNEL_ID.test(value))
    throw new UsageError(
      `--channel "${value}" is neither a channel id (as castnet channel list shows them) nor a URL (https://…, chain://…)`,
    );
  const channel = await context.api.channel(value);
  if (channel === undefined)
    throw new CliError(
      `the client API at ${context.api.base} has no channel "${value}": castnet channel list shows them, or give the channel's URL`,
    );
  return channel.url;
}

/** A fid given as digits, a registered name, or an account of the keystore, in that order. */
export async function resolveFid(context: Context, who: string): Promise<number> {
  if (/^\d{1,15}$/.test(who) && Number(who) > 0) return Number(who);
  const transfer = /^[a-z0-9][a-z0-9-]{0,15}$/.test(who) ? await context.registry.current(who) : undefined;
  if (transfer) return transfer.to;
  const keystore = context.keystore();
  if (keystore.has(who)) return keystore.get(who).fid;
  throw new CliError(`"${who}" is neither a fid, a registered name, nor an account of the keystore`);
}

export interface MentionedText {
  text: string;
  mentions: number[];
  mentionsPositions: number[];
}

/**
 * Takes each `@<who>` out of the text and records its fid and the UTF-8 byte offset where it stood,
 * as casts carry mentions (docs/reference/protocol-rules.md: positions are byte offsets into the
 * text, non-decreasing, in the order of `mentions`).
 */
export async function mention(
  context: Context,
  text: string,
  who: readonly string[],
): Promise<MentionedText> {
  const found = who.map((name) => {
    const token = `@${name}`;
    let at = text.indexOf(token);
    // "@al" must not match inside "@alice".
    while (at !== -1 && /[\w-]/.test(text[at + token.length] ?? "")) at = text.indexOf(token, at + 1);
    if (at === -1) throw new UsageError(`--mention ${name}: the text has no "${token}" to stand for it`);
    return { name, token, at };
  });
  found.sort((a, b) => a.at - b.at);
  let rest = text;
  let out = "";
  let consumed = 0;
  const mentions: number[] = [];
  const mentionsPositions: number[] = [];
  for (const { name, token, at } of found) {
    if (at < consumed) throw new UsageError(`--mention ${name} is given twice`);
    out += rest.slice(0, at - consumed);
    rest = rest.slice(at - consumed + token.length);
    consumed = at + token.length;
    mentions.push(await resolveFid(context, name));
    mentionsPositions.push(Buffer.byteLength(out, "utf8"));
  }
  return { text: out + rest, mentions, mentionsPositions };
}
