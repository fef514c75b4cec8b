import { randomBytes } from "node:crypto";
import { type Address, type Hex, verifyMessage } from "viem";
import type { ChainClient } from "../../interfaces/chain.js";
import type { SignedWriteLimiter } from "../../http/index.js";
import { verifyKeyGatewayAdd, verifySignedKeyRequest } from "../../protocol/eip712/index.js";
import type { NamingProfile } from "../../protocol/naming.js";
import { serializedTransaction } from "../../storage/index.js";
import { type ApprovalTypedData, approvalAdd, approvalTypedData } from "./approvals.js";
import type { ApiContext } from "../context.js";
import { ClientApiError, badInput, chainFailure, conflict, notFound } from "../errors.js";
import { checkKey, checkToken, futureDeadline, isRedirectUrl, parseFid, parseSignature } from "./input.js";
import { KeyAdds } from "./keyAdds.js";
import type { KeyRequestRow } from "./store.js";
import * as keyRequestStore from "./store.js";
import type { Sponsors } from "../sponsors.js";
import * as sponsorStore from "../sponsorStore.js";
import type { ClientApiDb } from "../tables.js";
import { KEY_REQUEST_STATES, type ShownKeyRequestState } from "./states.js";

/** The request as POST and GET answer it (docs/reference/client-api.md §7.3). */
export interface SignedKeyRequestJson {
  token: string;
  deeplinkUrl: string;
  key: string;
  state: ShownKeyRequestState;
  requestFid: number;
  isSponsored: boolean;
  userFid?: number;
}

export interface NewKeyRequest {
  key: string;
  /** Some clients send it as a string of digits. */
  requestFid: number | string;
  deadline: number;
  signature: string;
  redirectUrl?: string;
  sponsorship?: { sponsorFid: number | string; signature: string };
}

export interface Approval {
  token: string;
  fid: number;
  nonce: number;
  deadline: number;
  signature: string;
}

export interface KeyRequestOptions {
  chain: ChainClient;
  naming: NamingProfile;
  /** deeplinkUrl of a request, by its token. */
  deeplink: (token: string) => string;
  /** Credits taken from the sponsor when a sponsored request is approved. */
  sponsorCost: number;
  validatorContract?: Address;
  keyGatewayContract?: Address;
  limits: SignedWriteLimiter;
  /** How long a request stays readable after its deadline. */
  retentionSeconds: number;
}

/** How long an approval's typed data stays signable. */
const APPROVAL_WINDOW_SECONDS = 3600;
/**
 * Signed key requests: an app asks for its Ed25519 key to be added to a user's fid (SPEC B,
 * docs/reference/spec.md), a wallet approves with the user's key gateway `Add` signature, the key add goes to
 * the chain, and the request completes when its block is mined.
 */
export class KeyRequests {
  private readonly keyAdds: KeyAdds;

  constructor(
    private readonly ctx: ApiContext,
    private readonly sponsors: Sponsors,
    private readonly options: KeyRequestOptions,
  ) {
    this.keyAdds = new KeyAdds(ctx, options.chain);
  }

  /**
   * `clientIp` is the caller's socket address. The same signed {requestFid, key, deadline} sent
   * again answers the request it made the first time.
   */
  async create(input: NewKeyRequest, clientIp: string): Promise<SignedKeyRequestJson> {
    const key = input.key;
    checkKey(key);
    const requestFid = parseFid(input.requestFid, "requestFid");
    const deadline = futureDeadline(input.deadline, "deadline", this.ctx.nowSeconds());
    const signature = parseSignature(input.signature, "signature");
    const redirectUrl = input.redirectUrl;
    if (redirectUrl !== undefined && !isRedirectUrl(redirectUrl))
      throw badInput("redirectUrl must be an http(s) URL or an app's own scheme (such as myapp://done)");
    // Before any chain read or signature check: those are what a flood would cost. The fid named is
    // spent only once its custody's signature verifies.
    const signed = this.options.limits.admit(clientIp, requestFid);

    const requestSigner = await this.custodyOf(requestFid, "requestFid");
    const valid = await verifySignedKeyRequest(
      this.options.naming,
      { requestFid, key: key as Hex, deadline },
      signature,
      requestSigner,
      { verifyingContract: this.options.validatorContract },
    );
    if (!valid)
      throw badInput(
        `signature is not a SignedKeyRequest signature of {requestFid, key, deadline} by the custody address of fid ${requestFid}`,
      );
    signed();

    let sponsorFid: number | null = null;
    let sponsorSignature: Hex | null = null;
    if (input.sponsorship) {
      sponsorFid = parseFid(input.sponsorship.sponsorFid, "sponsorship.sponsorFid");
      sponsorSignature = parseSignature(input.sponsorship.signature, "sponsorship.signature");
      const sponsorCustody = await this.custodyOf(sponsorFid, "sponsorship.sponsorFid");
      // SPEC Authentication 6: the sponsor's custody signs an EIP-191 message whose raw input is the
      // requesting fid's signature.
      const sponsored = await verifyMessage({
        address: sponsorCustody,
        message: { raw: signature },
        signature: sponsorSignature,
      }).catch(() => false);
      if (!sponsored)
        throw badInput(
          `sponsorship.signature is not a signature by the custody address of fid ${sponsorFid} over the raw bytes of the request signature`,
        );
      await this.sponsors.assertCanSponsor(sponsorFid);
    }

    const now = this.ctx.nowSeconds();
    const same = { request_fid: requestFid, key: key.toLowerCase(), deadline, signature };
    const token = await serializedTransaction(
      this.ctx.database,
      `api:key-request:${requestFid}:${same.key}`,
      async (trx) => {
        const earlier = await keyRequestStore.sameKeyRequest(trx, same);
        if (earlier) return earlier.token;
        const token = `0x${randomBytes(16).toString("hex")}`;
        await keyRequestStore.insertKeyRequest(trx, {
          ...same,
          token,
          request_signer: requestSigner.toLowerCase(),
          redirect_url: redirectUrl ?? null,
          sponsor_fid: sponsorFid,
          sponsor_signature: sponsorSignature,
          state: "pending",
          user_fid: null,
          transaction_hash: null,
          charged: 0,
          created_at: now,
          updated_at: now,
        });
        return token;
      },
    );
    return this.render((await keyRequestStore.getKeyRequest(this.ctx.database.db, token))!);
  }

  /** The request, after checking the chain if its key add is still pending. */
  async get(token: string): Promise<SignedKeyRequestJson> {
    let row = await this.existing(token);
    if (row.state === "approved") {
      await this.keyAdds.advance(row);
      row = (await keyRequestStore.getKeyRequest(this.ctx.database.db, token))!;
    }
    return this.render(row);
  }

  /** The request's deadline (Unix seconds): the approval page shows it, the reference JSON has no field for it. */
  async deadlineOf(token: string): Promise<number> {
    return (await this.existing(token)).deadline;
  }

  /** What the approving wallet signs, and where to send the user afterwards. */
  async approvalTypedData(
    token: string,
    fid: number,
  ): Promise<{ typedData: ApprovalTypedData; redirectUrl?: string }> {
    const row = await this.existing(token);
    this.assertApprovable(row);
    const owner = await this.custodyOf(fid, "fid");
    const nonce = await keyRequestStore.gatewayNonce(this.ctx.database.db, owner);
    const deadline = Math.min(this.ctx.nowSeconds() + APPROVAL_WINDOW_SECONDS, row.deadline);
    const typedData = approvalTypedData(
      this.options.naming,
      approvalAdd(row, owner, nonce, deadline),
      this.options.keyGatewayContract,
    );
    return row.redirect_url === null ? { typedData } : { typedData, redirectUrl: row.redirect_url };
  }

  /**
   * Checks the user's key gateway `Add` signature; takes the nonce (and the sponsor's credits) and
   * marks the request "submitting" in one short transaction; then submits the key add outside it
   * (see KeyAdds). If the chain refuses, the approval is undone.
   */
  async approve(input: Approval): Promise<SignedKeyRequestJson> {
    const deadline = futureDeadline(input.deadline, "deadline", this.ctx.nowSeconds());
    const signature = parseSignature(input.signature, "signature");
    const row = await this.existing(input.token);
    this.assertApprovable(row);
    const owner = await this.custodyOf(input.fid, "fid");
    const valid = await verifyKeyGatewayAdd(
      this.options.naming,
      approvalAdd(row, owner, input.nonce, deadline),
      signature,
      owner,
      { verifyingContract: this.options.keyGatewayContract },
    );
    if (!valid)
      throw badInput(
        `signature is not a key gateway Add signature by the custody address of fid ${input.fid} for this request, nonce and deadline (sign the typed data from GET /v2/signed-key-request/approval as it is)`,
      );

    const now = this.ctx.nowSeconds();
    const claimed = await serializedTransaction(
      this.ctx.database,
      `api:key-request:${row.token}`,
      async (trx) => {
        const moved = await keyRequestStore.moveKeyRequest(trx, row.token, "pending", {
          state: "submitting",
          user_fid: input.fid,
          approval_custody: owner.toLowerCase(),
          approval_nonce: input.nonce,
          updated_at: now,
        });
        if (!moved) throw conflict("this signed key request was approved meanwhile");
        if (!(await keyRequestStore.consumeGatewayNonce(trx, owner, input.nonce))) {
          const current = await keyRequestStore.gatewayNonce(trx, owner);
          throw conflict(
            `nonce ${input.nonce} is not the current key gateway nonce of ${owner} (it is ${current}); fetch the typed data again`,
          );
        }
        const charged = await this.chargeSponsor(trx, row, now);
        if (charged > 0) await keyRequestStore.moveKeyRequest(trx, row.token, "submitting", { charged });
        return (await keyRequestStore.getKeyRequest(trx, row.token))!;
      },
    );
    await this.keyAdds.submit(claimed);
    return this.render((await keyRequestStore.getKeyRequest(this.ctx.database.db, row.token))!);
  }

  /** For the background loop: completes mined key adds, resolves cut-off approvals. */
  async advanceApproved(): Promise<void> {
    await this.keyAdds.resolveStale();
    await this.keyAdds.advanceApproved();
  }

  /** For the background loop: deletes requests expired longer ago than the retention. */
  async deleteExpired(): Promise<void> {
    const deleted = await keyRequestStore.deleteKeyRequestsBefore(
      this.ctx.database.db,
      this.ctx.nowSeconds() - this.options.retentionSeconds,
    );
    if (deleted > 0) this.ctx.logger.info({ deleted }, "deleted expired signed key requests");
  }

  private async chargeSponsor(trx: ClientApiDb, row: KeyRequestRow, now: number): Promise<number> {
    if (row.sponsor_fid === null) return 0;
    const cost = this.options.sponsorCost;
    if (!(await sponsorStore.chargeSponsor(trx, row.sponsor_fid, cost, now)))
      throw new ClientApiError(
        "payment_required",
        `sponsor fid ${row.sponsor_fid} no longer has the ${cost} credits this approval costs`,
      );
    return cost;
  }

  private assertApprovable(row: KeyRequestRow): void {
    if (row.state === "submitting")
      throw conflict(`this signed key request is being approved by fid ${row.user_fid}`);
    if (row.state !== "pending")
      throw conflict(`this signed key request is already ${row.state} (approved by fid ${row.user_fid})`);
    if (row.deadline < this.ctx.nowSeconds())
      throw conflict(
        `this signed key request expired at ${new Date(row.deadline * 1000).toISOString()}; the app must make a new one`,
      );
  }

  private async existing(token: string): Promise<KeyRequestRow> {
    checkToken(token);
    const row = await keyRequestStore.getKeyRequest(this.ctx.database.db, token.toLowerCase());
    if (!row) throw notFound(`No signed key request found with token ${token}`);
    return row;
  }

  private async custodyOf(fid: number, field: string): Promise<Address> {
    let custody: Address | undefined;
    try {
      custody = await this.options.chain.custodyOf(fid);
    } catch (error) {
      throw chainFailure(error, `the custody address of fid ${fid}`, this.ctx.logger);
    }
    if (custody === undefined) throw badInput(`${field} ${fid} is not a registered fid`);
    return custody;
  }

  private render(row: KeyRequestRow): SignedKeyRequestJson {
    const json: SignedKeyRequestJson = {
      token: row.token,
      deeplinkUrl: this.options.deeplink(row.token),
      key: row.key,
      state: KEY_REQUEST_STATES[row.state].shownAs,
      requestFid: row.request_fid,
      isSponsored: row.sponsor_fid !== null,
    };
    // A request still shown as pending names no user yet, even while its approval is submitted.
    if (row.user_fid !== null && json.state !== "pending") json.userFid = row.user_fid;
    return json;
  }
}
