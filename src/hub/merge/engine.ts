/**
 * The merge path. A submitted message is decoded, checked against the hub's state in the reference
 * hub's order (stateChecks.ts: network, fid, signer, username, name-service proof), validated statelessly in the
 * verifier pool meanwhile, and then merged. Merges are committed in small groups: one transaction
 * for the messages that arrived while the previous one was committing, each message keeping its own
 * result. A message is acknowledged only once its transaction has committed and is durable; the
 * next group commits while the disk catches up with the previous one.
 */
import { HubError } from "../../protocol/errors.js";
import type { MessageData } from "../../protocol/generated/message.js";
import { type BatchCommitted, GroupCommit } from "../../storage/index.js";
import { writeMessageJson } from "../../protocol/json/index.js";
import { decodeSubmitted, makeTsHash, requireData } from "../../protocol/message.js";
import { prefetch, storageOf, type MergeContext } from "./context.js";
import { commitMerge, type HubCore } from "../core.js";
import { withBytes } from "../data/events.js";
import type { FidRateLimit } from "./fidRateLimit.js";
import { loadStorage, requireStorage } from "./limits.js";
import { activeSigners, registeredFids, signerId } from "../data/onchain.js";
import { mergeMessage } from "./stores/crdt.js";
import { storeFor, storeTypeOf } from "./stores/index.js";
import type { Incoming } from "./stores/rows.js";
import { fidLock, nameLock } from "./locks.js";
import {
  type FollowerNudge,
  isAccountError,
  needsNameCheck,
  StateChecks,
  unknownFid,
  unknownSigner,
} from "./stateChecks.js";
import type { Verifier } from "./verify.js";
import type { KeyAuthority } from "../../protocol/validation/index.js";
import { gaslessKey, type GaslessKeyRow } from "../data/gaslessKeys.js";
import { expired, isKeyMessage, markUsed, mergeKeyMessage, outOfScope } from "./gaslessKeys.js";

/** A message that passed every check before its merge, with its JSON rendered once. */
export type Accepted = Incoming;

/**
 * Largest encoded message accepted, whatever route it came by: link compact states carry up to
 * 64 KiB of data, every other message a few kilobytes.
 */
export const MAX_MESSAGE_BYTES = 80 * 1024;

/** Largest group of merges committed in one transaction. */
const MAX_GROUP = 256;

/** A message ready for the merge queue, with the verdict of its stateless checks. */
interface Prepared {
  accepted: Accepted;
  /** Reported only if the state checks under the lock pass: the reference checks state first. */
  statelessError: HubError | undefined;
  /** For a KEY_ADD or KEY_REMOVE that passed: what its EIP-712 signatures recovered. */
  keyAuthority: KeyAuthority | undefined;
}

export class MergeEngine {
  /** Merges committed a group at a time; a message's outcome is its refusal, if any. */
  readonly #groups = new GroupCommit<Prepared, HubError | undefined>(
    (group) => this.#commitGroup(group),
    MAX_GROUP,
  );
  #closing = false;
  readonly #checks: StateChecks;

  constructor(
    private readonly core: HubCore,
    private readonly verifier: Verifier,
    private readonly hooks: FollowerNudge,
    private readonly rateLimit: FidRateLimit,
  ) {
    this.#checks = new StateChecks(core, hooks);
  }

  /** Checks a message and merges it; resolves once it is committed, throws HubError when refused. */
  async submit(bytes: Uint8Array): Promise<Accepted> {
    return this.commit(await this.prepare(bytes));
  }

  /** Every check of submit except the merge itself (frame actions pass; they are never stored). */
  async validate(bytes: Uint8Array): Promise<Accepted> {
    const { accepted, statelessError } = await this.prepare(bytes, true);
    const message = accepted.message;
    const stateError = await this.#checks.stateAfterCatchUp(message, statelessError === undefined);
    if (stateError !== undefined) throw stateError;
    if (statelessError !== undefined) throw statelessError;
    const data = message.data;
    if (storeTypeOf(data.type) !== undefined) {
      const storage = requireStorage(await loadStorage(this.core.database.db, data.fid, this.core.now()));
      const refusal = storeFor(data.type)?.storageCheck?.(storage, data, this.core.network);
      if (refusal !== undefined) throw refusal;
    }
    return accepted;
  }

  /**
   * Decodes a message into its stored form and runs what needs no lock: the network check, in the
   * verifier pool the stateless checks, and the username checks (which may fetch from the registry,
   * only for a message whose signature is good). Whether the fid and its signer are known is checked
   * under the fid's lock, in the merge transaction.
   */
  async prepare(bytes: Uint8Array, forValidation = false): Promise<Prepared> {
    if (this.#closing) throw new HubError("unavailable", "the hub is shutting down");
    try {
      return await this.#prepare(bytes, forValidation);
    } catch (error) {
      if (error instanceof HubError && !forValidation) this.core.metrics.refused(error.errCode);
      throw error;
    }
  }

  async #prepare(received: Uint8Array, forValidation: boolean): Promise<Prepared> {
    if (received.length > MAX_MESSAGE_BYTES) {
      throw new HubError(
        "bad_request.validation_failure",
        `the message is ${received.length} bytes; a message may be at most ${MAX_MESSAGE_BYTES} bytes`,
      );
    }
    const decoded = decodeSubmitted(received);
    const bytes = decoded.bytes;
    const message = requireData(withBytes(decoded.message, bytes));
    const stateless = this.verifier.validate(bytes, this.core.now());
    // Awaited below; if an earlier check fails first, its verdict is dropped.
    stateless.catch(() => undefined);
    const data = message.data;
    const networkError = this.#checks.network(data);
    if (networkError !== undefined) throw networkError;
    const verified = await stateless;
    const statelessError = verified.error;
    if (needsNameCheck(data) && !forValidation) {
      const error = await this.#checks.stateAfterCatchUp(message, statelessError === undefined);
      if (error !== undefined) throw error;
    }
    if (
      statelessError === undefined &&
      !forValidation &&
      storeTypeOf(data.type) === undefined &&
      !isKeyMessage(data.type)
    ) {
      throw new HubError("bad_request.validation_failure", "invalid message type");
    }
    return {
      accepted: {
        message,
        bytes,
        hash: message.hash,
        tsHash: makeTsHash(data.timestamp, message.hash),
        json: writeMessageJson(message, this.core.profile),
      },
      statelessError,
      keyAuthority: verified.keyAuthority,
    };
  }

  /**
   * Queues a prepared message for the next group commit. A message refused because its fid or
   * signer is unknown is tried once more after catching up with the chain (the key may have been
   * mined a moment ago), if its signature is good: an unsigned message costs no catch-up.
   */
  async commit(prepared: Prepared): Promise<Accepted> {
    let outcome = await this.#enqueue(prepared);
    if (isAccountError(outcome) && prepared.statelessError === undefined) {
      await this.hooks.syncChain();
      outcome = await this.#enqueue(prepared);
    }
    if (outcome !== undefined) {
      this.core.metrics.refused(outcome.errCode);
      throw outcome;
    }
    this.core.metrics.merges.inc();
    return prepared.accepted;
  }

  /** Refuses new submits and waits for every queued merge to commit. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#groups.idle();
  }

  #enqueue(prepared: Prepared): Promise<HubError | undefined> {
    return this.#groups.run(prepared);
  }

  /** Commits a group in one merge transaction; its messages are answered once it is durable. */
  async #commitGroup(group: readonly Prepared[]): Promise<BatchCommitted<HubError | undefined>> {
    const locks = group.flatMap((prepared) => locksOf(prepared.accepted.message.data));
    const { value, durable } = await commitMerge(this.core, locks, (ctx) => this.#mergeGroup(ctx, group));
    this.core.metrics.mergeGroupSize.observe(group.length);
    return { outcomes: value.map((refusal) => ({ status: "fulfilled", value: refusal })), durable };
  }

  async #mergeGroup(ctx: MergeContext, group: readonly Prepared[]): Promise<(HubError | undefined)[]> {
    const datas = group.map((prepared) => prepared.accepted.message.data);
    const fids = [...new Set(datas.map((d) => d.fid))];
    const stores = [...new Set(datas.flatMap((d) => storeTypeOf(d.type) ?? []))];
    const registered = await registeredFids(ctx.trx, fids);
    const active = await activeSigners(ctx.trx, fids);
    await prefetch(ctx, fids, stores);
    const results: (HubError | undefined)[] = [];
    for (const prepared of group) {
      const message = prepared.accepted.message;
      const fid = message.data.fid;
      if (!registered.has(fid)) results.push(unknownFid(fid));
      else if (isKeyMessage(message.data.type)) {
        // Authorised by the custody or the key itself (mergeKeyMessage), not by a key already held.
        results.push(prepared.statelessError ?? (await this.#mergeWithinRate(ctx, prepared)));
      } else if (active.has(signerId(fid, message.signer))) {
        results.push(prepared.statelessError ?? (await this.#mergeWithinRate(ctx, prepared)));
      } else {
        // Looked up one by one and only here: an earlier message of the group may have added it.
        const key = await gaslessKey(ctx.trx, fid, message.signer);
        if (key === undefined) results.push(unknownSigner(message.signer, fid));
        else results.push(await this.#mergeByGaslessKey(ctx, prepared, key));
      }
    }
    return results;
  }

  async #mergeByGaslessKey(
    ctx: MergeContext,
    prepared: Prepared,
    key: GaslessKeyRow,
  ): Promise<HubError | undefined> {
    const data = prepared.accepted.message.data;
    // The successor's order: the key's scopes with the signer, its lifetime after every other check.
    const refused = outOfScope(key, data.type) ?? prepared.statelessError ?? expired(key, ctx.nowMs);
    if (refused !== undefined) return refused;
    const refusal = await this.#mergeWithinRate(ctx, prepared);
    if (refusal === undefined) await markUsed(ctx, key, data.timestamp);
    return refusal;
  }

  /**
   * Steps 9 to 11 of docs/reference/protocol-rules.md §3, in that order: storage units (and a store's
   * own rule over them), the fid's rate limit, the merge. Returns the refusal, if any.
   */
  async #mergeWithinRate(ctx: MergeContext, prepared: Prepared): Promise<HubError | undefined> {
    const accepted = prepared.accepted;
    const data = accepted.message.data;
    const fid = data.fid;
    try {
      const storage = requireStorage(await storageOf(ctx, fid));
      const refusal = storeFor(data.type)?.storageCheck?.(storage, data, this.core.network);
      if (refusal !== undefined) return refusal;
      const limited = this.rateLimit.check(fid, storage.total, ctx.nowMs);
      if (limited !== undefined) return limited;
      if (prepared.keyAuthority !== undefined) await mergeKeyMessage(ctx, accepted, prepared.keyAuthority);
      else await mergeMessage(ctx, accepted);
    } catch (error) {
      if (error instanceof HubError) return error;
      throw error;
    }
    this.rateLimit.consume(fid, ctx.nowMs);
    return undefined;
  }
}

/**
 * The locks a merge of this message needs: its fid, what it may take from another fid, and the fids
 * whose storage it moves.
 */
function locksOf(data: MessageData): bigint[] {
  const locks = [fidLock(data.fid)];
  const spec = storeFor(data.type);
  const contested = spec?.crossFid?.target(data);
  if (contested !== undefined) locks.push(nameLock(contested));
  for (const fid of spec?.movesStorage?.(data) ?? []) locks.push(fidLock(fid));
  return locks;
}
