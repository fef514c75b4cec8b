/**
 * Sign In With Farcaster channels, the relay's rule (docs/reference/sign-in.md §1; castnet's choices
 * in docs/clientapi.md, "Sign in"): an app opens a channel, the user's client app completes it with
 * the signed sign-in message, the app reads the completed channel once. Unlike the reference relay,
 * castnet checks the message before it completes a channel.
 */
import { randomInt } from "node:crypto";
import type { Hex } from "viem";
import { generateSiweNonce } from "viem/siwe";
import type { ActivitySource, HubProfile } from "../../interfaces/activity.js";
import type { ChainClient } from "../../interfaces/chain.js";
import type { ApiContext } from "../context.js";
import { ClientApiError, badInput, chainFailure, conflict } from "../errors.js";
import * as channelStore from "./store.js";
import type { ChannelRow } from "./store.js";
import { type AuthMethod, verifySignIn } from "./verify.js";

/** How long a channel stays open, as the reference relay keeps it (its CHANNEL_TTL default). */
export const CHANNEL_LIFETIME_SECONDS = 3600;
/** The reference's token alphabet: no 0, 1, I or O, which read alike. */
const TOKEN_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
const TOKEN_LENGTH = 8;
const TOKEN = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/;

export interface NewSignInChannel {
  siweUri: string;
  domain: string;
  nonce?: string;
  notBefore?: string;
  expirationTime?: string;
  requestId?: string;
  redirectUrl?: string;
  acceptAuthAddress?: boolean;
}

/** An open channel for castnet's own approval page: as the relay answers it, and when it closes. */
export interface OpenSignInChannel {
  channel: SignInChannelJson;
  /** Unix seconds. */
  expiresAt: number;
}

/** Who opened a channel: what the reference keeps as the channel's metadata. */
export interface SignInCaller {
  ip: string;
  userAgent: string | undefined;
}

export interface OpenedSignInChannel {
  channelToken: string;
  url: string;
  connectUri: string;
  nonce: string;
}

export interface Profile {
  username?: string;
  displayName?: string;
  bio?: string;
  pfpUrl?: string;
}

export interface Completion {
  message: string;
  signature: string;
  fid: number;
  /** The client app's claim; it must be how the message's signer holds the fid. */
  authMethod?: AuthMethod;
  /** Fields the client app knows; the hub's user data fills the others. */
  profile?: Profile;
}

/** A channel as the relay answers it: GET status without the links, authenticate with them. */
export interface SignInChannelJson {
  state: "pending" | "completed";
  nonce: string;
  url?: string;
  connectUri?: string;
  acceptAuthAddress: boolean;
  signatureParams: Omit<NewSignInChannel, "nonce"> & { nonce: string };
  metadata: { userAgent: string; ip: string };
  message?: string;
  signature?: string;
  authMethod?: AuthMethod;
  fid?: number;
  username?: string;
  displayName?: string;
  bio?: string;
  pfpUrl?: string;
  custody?: string;
  verifications?: string[];
}

export interface SignInOptions {
  chain: ChainClient;
  activity: ActivitySource;
  /** The channel's url (and connectUri), by its token. */
  link: (token: string) => string;
  /** Spends one channel of a client address, or throws 429. */
  admit: (ip: string) => void;
}

export class SignIns {
  constructor(
    private readonly ctx: ApiContext,
    private readonly options: SignInOptions,
  ) {}

  async open(input: NewSignInChannel, caller: SignInCaller): Promise<OpenedSignInChannel> {
    for (const field of ["notBefore", "expirationTime"] as const) {
      const value = input[field];
      if (value !== undefined && Number.isNaN(Date.parse(value)))
        throw badInput(`${field} must be a date-time such as 2026-01-01T00:00:00.000Z`);
    }
    if (input.nonce !== undefined && !/^[a-zA-Z0-9]{8,}$/.test(input.nonce))
      throw badInput("nonce must be at least 8 letters and digits, as a sign-in message requires");
    this.options.admit(caller.ip);
    const token = channelToken();
    const nonce = input.nonce ?? generateSiweNonce();
    const now = this.ctx.nowSeconds();
    await channelStore.insertChannel(this.ctx.database.db, {
      token,
      state: "pending",
      nonce,
      siwe_uri: input.siweUri,
      domain: input.domain,
      not_before: input.notBefore ?? null,
      expiration_time: input.expirationTime ?? null,
      request_id: input.requestId ?? null,
      redirect_url: input.redirectUrl ?? null,
      accept_auth_address: input.acceptAuthAddress === undefined ? null : Number(input.acceptAuthAddress),
      client_ip: caller.ip,
      user_agent: caller.userAgent ?? "Unknown",
      created_at: now,
      expires_at: now + CHANNEL_LIFETIME_SECONDS,
      message: null,
      signature: null,
      auth_method: null,
      fid: null,
      username: null,
      display_name: null,
      bio: null,
      pfp_url: null,
      custody: null,
      verifications: null,
    });
    const url = this.options.link(token);
    return { channelToken: token, url, connectUri: url, nonce };
  }

  /** The channel as its status shows it, without spending it, and when it closes: the approval page's read. */
  async pending(token: string): Promise<OpenSignInChannel> {
    const row = await this.live(token);
    return { channel: render(row), expiresAt: row.expires_at };
  }

  /**
   * GET status: the pending channel, or the completed one, delivered once (the channel is then
   * gone, as the reference deletes it).
   */
  async status(token: string): Promise<SignInChannelJson> {
    const row = await this.live(token);
    if (row.state === "pending") return render(row);
    const taken = await channelStore.takeCompletedChannel(
      this.ctx.database.db,
      row.token,
      this.ctx.nowSeconds(),
    );
    if (taken === undefined) throw unknownChannel();
    return render(taken);
  }

  /**
   * Completes the channel with a signed sign-in message, after the checks an app makes
   * (verifySignIn: the channel's nonce and domain, the signature, the signer against the chain) and
   * that the message names the fid claimed. Returns the channel with its links, and when it closes.
   */
  async complete(token: string, completion: Completion): Promise<OpenSignInChannel> {
    const row = await this.live(token);
    if (row.state === "completed") throw alreadyCompleted(row);
    const verified = await verifySignIn(
      this.options.chain,
      {
        message: completion.message,
        signature: completion.signature,
        domain: row.domain,
        nonce: row.nonce,
        acceptAuthAddress: row.accept_auth_address !== 0,
        now: new Date(this.ctx.nowSeconds() * 1000),
      },
      this.ctx.logger,
    );
    if (verified.fid !== completion.fid)
      throw badInput(`the message signs in fid ${verified.fid}, not fid ${completion.fid}`);
    if (completion.authMethod !== undefined && completion.authMethod !== verified.authMethod)
      throw badInput(
        `authMethod is ${completion.authMethod}, but ${verified.address} signs for fid ${verified.fid} as its ${verified.authMethod === "custody" ? "custody address" : "auth address"}`,
      );
    const custody = await this.custodyOf(verified.fid);
    const hub = await this.hubProfileOf(verified.fid);
    const profile = { ...withoutEmpty(hub), ...withoutEmpty(completion.profile ?? {}) };
    const completed = await channelStore.completeChannel(
      this.ctx.database.db,
      row.token,
      this.ctx.nowSeconds(),
      {
        message: completion.message,
        signature: completion.signature,
        auth_method: verified.authMethod,
        fid: verified.fid,
        username: profile.username ?? null,
        display_name: profile.displayName ?? null,
        bio: profile.bio ?? null,
        pfp_url: profile.pfpUrl ?? null,
        custody,
        verifications: JSON.stringify(hub.verifications),
      },
    );
    // Completed by another caller meanwhile, or closed.
    if (completed === undefined) throw alreadyCompleted(await this.live(row.token));
    const url = this.options.link(row.token);
    return { channel: { ...render(completed), url, connectUri: url }, expiresAt: completed.expires_at };
  }

  /** For the background loop: deletes the channels whose hour is over. */
  async deleteExpired(): Promise<void> {
    const deleted = await channelStore.deleteChannelsExpiredAt(this.ctx.database.db, this.ctx.nowSeconds());
    if (deleted > 0) this.ctx.logger.debug({ deleted }, "deleted expired sign-in channels");
  }

  private async live(token: string): Promise<ChannelRow> {
    if (!TOKEN.test(token)) throw unknownChannel();
    const row = await channelStore.liveChannel(this.ctx.database.db, token, this.ctx.nowSeconds());
    if (row === undefined) throw unknownChannel();
    return row;
  }

  private async custodyOf(fid: number): Promise<Hex> {
    let custody: Hex | undefined;
    try {
      custody = await this.options.chain.custodyOf(fid);
    } catch (error) {
      throw chainFailure(error, `the custody address of fid ${fid}`, this.ctx.logger);
    }
    if (custody === undefined) throw new ClientApiError("unauthorized", `fid ${fid} is not registered`);
    return custody;
  }

  private async hubProfileOf(fid: number): Promise<HubProfile> {
    try {
      return await this.options.activity.profileOf(fid);
    } catch (error) {
      this.ctx.logger.error({ err: error }, `hub read failed: the profile of fid ${fid}`);
      throw new ClientApiError(
        "unavailable",
        `the hub is unavailable; could not read the user data and verifications of fid ${fid}`,
      );
    }
  }
}

function channelToken(): string {
  let token = "";
  for (let i = 0; i < TOKEN_LENGTH; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

function unknownChannel(): ClientApiError {
  return new ClientApiError(
    "unauthorized",
    "no open sign-in channel has this token: it is unknown, its hour is over, or its completed answer was already delivered",
  );
}

function alreadyCompleted(row: ChannelRow): ClientApiError {
  return conflict(`this sign-in channel is already completed by fid ${row.fid}; a channel completes once`);
}

function withoutEmpty(profile: Profile): Profile {
  return Object.fromEntries(
    Object.entries(profile).filter(
      ([key, value]) => key !== "verifications" && typeof value === "string" && value !== "",
    ),
  );
}

function render(row: ChannelRow): SignInChannelJson {
  const acceptAuthAddress = row.accept_auth_address !== 0;
  const signatureParams: SignInChannelJson["signatureParams"] = {
    siweUri: row.siwe_uri,
    domain: row.domain,
    nonce: row.nonce,
  };
  if (row.not_before !== null) signatureParams.notBefore = row.not_before;
  if (row.expiration_time !== null) signatureParams.expirationTime = row.expiration_time;
  if (row.request_id !== null) signatureParams.requestId = row.request_id;
  if (row.redirect_url !== null) signatureParams.redirectUrl = row.redirect_url;
  // The reference keeps the app's body as signatureParams: acceptAuthAddress is there when it was sent.
  if (row.accept_auth_address !== null) signatureParams.acceptAuthAddress = acceptAuthAddress;
  const json: SignInChannelJson = {
    state: row.state,
    nonce: row.nonce,
    acceptAuthAddress,
    signatureParams,
    metadata: { userAgent: row.user_agent, ip: row.client_ip },
  };
  if (row.state !== "completed") return json;
  return {
    ...json,
    message: row.message!,
    signature: row.signature!,
    authMethod: row.auth_method!,
    fid: row.fid!,
    ...(row.username === null ? {} : { username: row.username }),
    ...(row.display_name === null ? {} : { displayName: row.display_name }),
    ...(row.bio === null ? {} : { bio: row.bio }),
    ...(row.pfp_url === null ? {} : { pfpUrl: row.pfp_url }),
    custody: row.custody!,
    verifications: JSON.parse(row.verifications!) as string[],
  };
}
