/**
 * Quick Auth (docs/reference/sign-in.md §5–§6): a mini app asks for a nonce, the user's client signs
 * a Sign In With Farcaster message carrying it, and this server checks the message against the chain
 * and answers a JWT that the app's backend verifies with `@farcaster/quick-auth` against the key set
 * served here. Tokens are the reference server's (RS256, one hour, `sub` the fid, `aud` the domain)
 * but name this client API's own public URL as their issuer; the signing keys live in the database.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  randomBytes,
  randomUUID,
} from "node:crypto";
import { promisify } from "node:util";
import type { ChainClient } from "../../interfaces/chain.js";
import { readSignInMessage, SignInMessageError } from "../../protocol/siwf.js";
import { serializedTransaction } from "../../storage/index.js";
import type { ApiContext } from "../context.js";
import { ClientApiError, badInput } from "../errors.js";
import * as store from "./quickAuthStore.js";
import { type QuickAuthClaims, type ReadToken, TokenError, readToken, signToken } from "./quickAuthToken.js";
import { verifySignIn } from "./verify.js";

/** How long a nonce may be used, as the reference keeps it (§6). */
export const NONCE_LIFETIME_SECONDS = 300;
/** A token's lifetime, as the reference's (§6); a retired key stays in the key set this long. */
export const TOKEN_LIFETIME_SECONDS = 3600;
/**
 * A new key is in the key set this long before it signs. A verifier using jose (as quick-auth does,
 * §5.1) fetches the key set again for an unknown kid only if it has not fetched it in the last 30 s;
 * after this delay every such verifier either has the new key or may fetch it.
 */
export const KEY_PUBLISHED_AHEAD_SECONDS = 60;
/** The reference prefixes its nonces with two letters naming the region that made them (§6). */
const NONCE_PREFIX = "cn";
const KEYS_LOCK = "quick auth keys";

export interface SiwfInput {
  message: string;
  signature: string;
  domain: string;
  acceptAuthAddress?: boolean;
}

/** A public key of the key set, as a JWK. */
export interface QuickAuthJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: "RS256";
  use: "sig";
}

export interface QuickAuthKeyState {
  kid: string;
  signsFrom: number;
  retiredAt?: number;
}

export interface QuickAuthOptions {
  chain: ChainClient;
  /** The client API's public URL, the tokens' issuer; undefined when it was started without one. */
  publicUrl: () => string | undefined;
  /** Spends one of a client address's nonces, or refuses (limits.ts). */
  admit: (ip: string) => void;
}

const generateRsaKey = promisify(generateKeyPair);

export class QuickAuth {
  /**
   * Each key's parsed private and public halves, by kid: a key never changes once made, and parsing
   * its PEM cost 0.7 ms, most of a signature's 1 ms. Kept for the keys of the last key set read.
   */
  readonly #parsed = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();

  constructor(
    private readonly ctx: ApiContext,
    private readonly options: QuickAuthOptions,
  ) {}

  /** A fresh nonce for the client at `ip`, good for one sign-in within the next five minutes. */
  async nonce(ip: string): Promise<string> {
    this.options.admit(ip);
    const nonce = NONCE_PREFIX + randomBytes(16).toString("hex");
    await store.insertNonce(this.ctx.database.db, nonce, this.ctx.nowSeconds() + NONCE_LIFETIME_SECONDS);
    return nonce;
  }

  /**
   * The token for a signed sign-in message whose nonce this server gave. The nonce is spent before
   * the signature is checked, as the reference spends it, so a message is tried once.
   */
  async verifySiwf(input: SiwfInput): Promise<string> {
    const issuer = this.issuer();
    const now = this.ctx.nowSeconds();
    let nonce: string;
    try {
      nonce = readSignInMessage(input.message, new Date(now * 1000)).message.nonce;
    } catch (error) {
      if (error instanceof SignInMessageError) throw badInput(error.message);
      throw error;
    }
    if (!(await store.consumeNonce(this.ctx.database.db, nonce, now)))
      throw badInput(
        `the message's nonce ${nonce} is not a live nonce of this server: it was used already, has expired (nonces last ${NONCE_LIFETIME_SECONDS / 60} minutes) or was never given; ask POST /nonce for a new one`,
      );
    const { fid } = await verifySignIn(
      this.options.chain,
      {
        message: input.message,
        signature: input.signature,
        domain: input.domain,
        acceptAuthAddress: input.acceptAuthAddress ?? true,
        now: new Date(now * 1000),
      },
      this.ctx.logger,
    );
    const key = await this.signingKey(now);
    const claims: QuickAuthClaims = {
      iat: now,
      exp: now + TOKEN_LIFETIME_SECONDS,
      iss: issuer,
      sub: fid,
      aud: input.domain,
    };
    return signToken(claims, key.kid, this.#parse(key).privateKey);
  }

  /** The claims of a token this server signed for `domain`, still valid; otherwise bad_request saying why. */
  async verifyToken(token: string, domain: string): Promise<QuickAuthClaims> {
    const issuer = this.issuer();
    const now = this.ctx.nowSeconds();
    const invalid = (why: string) => badInput(`the token is not valid: ${why}`);
    let read: ReadToken;
    try {
      read = readToken(token);
    } catch (error) {
      if (error instanceof TokenError) throw invalid(error.message);
      throw error;
    }
    if (read.header.alg !== "RS256") throw invalid(`it is signed with ${read.header.alg}, not RS256`);
    const keys = await this.#liveKeys(now);
    const key = keys.find((k) => k.kid === read.header.kid);
    if (key === undefined || !read.signedBy(this.#parse(key).publicKey))
      throw invalid("no key of this server's key set signed it");
    const { payload } = read;
    if (payload.iss !== issuer) throw invalid(`it was issued by ${String(payload.iss)}, not ${issuer}`);
    if (payload.aud !== domain) throw invalid(`it is for the domain ${String(payload.aud)}, not ${domain}`);
    if (typeof payload.exp !== "number" || payload.exp <= now) throw invalid("it has expired");
    // Signed by one of this server's keys, so its claims are the ones verifySiwf wrote.
    return payload as unknown as QuickAuthClaims;
  }

  /**
   * The public keys a verifier may meet in a live token: the signing key, the next, and retired keys
   * until their tokens expire. Empty until the first sign-in makes the first key: a read writes nothing.
   */
  async keySet(): Promise<QuickAuthJwk[]> {
    const keys = await this.#liveKeys(this.ctx.nowSeconds());
    return keys.map((key) => {
      const { kty, n, e } = this.#parse(key).publicKey.export({ format: "jwk" });
      return { kty: kty!, n: n!, e: e!, kid: key.kid, alg: "RS256", use: "sig" };
    });
  }

  /** The issuer and where its key set is, as OpenID discovery names them. */
  discovery(): { issuer: string; jwks_uri: string } {
    const issuer = this.issuer();
    return { issuer, jwks_uri: `${issuer}/.well-known/jwks.json` };
  }

  /**
   * Makes a new signing key and retires the current one. The new key is published at once and signs
   * from KEY_PUBLISHED_AHEAD_SECONDS on (at once when there was no key); the old one signs until
   * then and stays in the key set until its last token has expired. Answers the key set's keys.
   */
  async rotate(): Promise<QuickAuthKeyState[]> {
    const fresh = await newKey();
    const now = this.ctx.nowSeconds();
    const keys = await serializedTransaction(this.ctx.database, KEYS_LOCK, async (trx) => {
      await store.deleteDeadKeys(trx, now, TOKEN_LIFETIME_SECONDS);
      const first = (await store.liveKeys(trx, now, TOKEN_LIFETIME_SECONDS)).length === 0;
      const signsFrom = first ? now : now + KEY_PUBLISHED_AHEAD_SECONDS;
      await store.retireKeys(trx, signsFrom);
      await store.insertKey(trx, { ...fresh, createdAt: now, signsFrom });
      return store.liveKeys(trx, now, TOKEN_LIFETIME_SECONDS);
    });
    this.ctx.logger.info({ kid: fresh.kid }, "Quick Auth signing key rotated");
    return keys.map((key) => ({
      kid: key.kid,
      signsFrom: key.signs_from,
      ...(key.retired_at === null ? {} : { retiredAt: key.retired_at }),
    }));
  }

  /** Deletes the expired nonces and the keys whose tokens have all expired. */
  async deleteExpired(): Promise<void> {
    const now = this.ctx.nowSeconds();
    await store.deleteExpiredNonces(this.ctx.database.db, now);
    await store.deleteDeadKeys(this.ctx.database.db, now, TOKEN_LIFETIME_SECONDS);
  }

  /** The keys of the key set at `now`; parsed halves of keys no longer in it are dropped. */
  async #liveKeys(now: number): Promise<store.QuickAuthKeyRow[]> {
    const keys = await store.liveKeys(this.ctx.database.db, now, TOKEN_LIFETIME_SECONDS);
    for (const kid of this.#parsed.keys()) if (!keys.some((key) => key.kid === kid)) this.#parsed.delete(kid);
    return keys;
  }

  #parse(key: store.QuickAuthKeyRow): { privateKey: KeyObject; publicKey: KeyObject } {
    let parsed = this.#parsed.get(key.kid);
    if (parsed === undefined) {
      const privateKey = createPrivateKey(key.private_key);
      this.#parsed.set(key.kid, (parsed = { privateKey, publicKey: createPublicKey(privateKey) }));
    }
    return parsed;
  }

  private issuer(): string {
    const url = this.options.publicUrl();
    if (url === undefined)
      throw new ClientApiError(
        "unavailable",
        "Quick Auth is off: this client API was started without a public URL, which its tokens must name as their issuer",
      );
    return url.replace(/\/+$/, "");
  }

  /** The key signing at `now`: the latest to have started. The first key is made by the first sign-in. */
  private async signingKey(now: number): Promise<store.QuickAuthKeyRow> {
    let keys = await this.#liveKeys(now);
    if (keys.length === 0) {
      const fresh = await newKey();
      // Another process may make the first key meanwhile: the first to take the lock makes it.
      keys = await serializedTransaction(this.ctx.database, KEYS_LOCK, async (trx) => {
        const made = await store.liveKeys(trx, now, TOKEN_LIFETIME_SECONDS);
        if (made.length > 0) return made;
        await store.insertKey(trx, { ...fresh, createdAt: now, signsFrom: now });
        return store.liveKeys(trx, now, TOKEN_LIFETIME_SECONDS);
      });
    }
    // A process whose clock is behind the one that made the only key finds none started: it takes the earliest.
    return keys.findLast((key) => key.signs_from <= now) ?? keys[0]!;
  }
}

/** An RSA 2048 key with a random UUID as its kid, as the reference's (§6); the private key as PKCS #8 PEM. */
async function newKey(): Promise<{ kid: string; privateKey: string }> {
  const { privateKey } = await generateRsaKey("rsa", { modulusLength: 2048 });
  return { kid: randomUUID(), privateKey: privateKey.export({ format: "pem", type: "pkcs8" }) as string };
}
