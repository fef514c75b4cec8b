/**
 * The merge path. A submitted message is decoded, checked against the hub's state in the reference
 * hub's order (network, fid, signer, username, name-service proof), validated statelessly in the
 * verifier pool meanwhile, and then merged. Merges are committed in small groups: one transaction
 * for the messages that arrived while the previous one was committing, each message keeping its own
 * result. A message is acknowledged only once its transaction has committed.
 */
import type { Kysely } from "kysely";
import { HubError } from "../protocol/errors.js";
import { MessageType, UserDataType, type Message, type MessageData } from "../protocol/generated/message.js";
import { UserNameType } from "../protocol/generated/username_proof.js";
import { writeMessageJson } from "../protocol/json/index.js";
import { profileNames } from "../protocol/json/enums.js";
import { decodeMessage, makeTsHash } from "../protocol/message.js";
import type { MergeContext } from "./context.js";
import { runMerge, type HubCore } from "./core.js";
import { addressKey, nameKey, StoreType } from "./keys.js";
import { loadStorage } from "./limits.js";
import { isActiveSigner } from "./onchain.js";
import { mergeMessage } from "./stores/crdt.js";
import { storeFor } from "./stores/index.js";
import type { Incoming } from "./stores/rows.js";
import type { HubTables } from "./tables.js";
import { fidLock, nameLock } from "./transaction.js";
import type { Verifier } from "./verify.js";

/** A message that passed every check before its merge, with its JSON rendered once. */
export type Accepted = Incoming;

export interface EngineHooks {
  /** Catches up with the chain (a key or fid may have just been mined). */
  syncChain(): Promise<void>;
  /** Fetches the registry's transfers of a name the hub has no proof for yet. */
  recoverName(name: string): Promise<void>;
}

/** Largest group of merges committed in one transaction. */
const MAX_GROUP = 256;

interface Waiting {
  accepted: Accepted;
  resolve(): void;
  reject(error: unknown): void;
}

function hex(bytes: Uint8Array): string {
  return "0x" + Buffer.from(bytes).toString("hex");
}

const utf8 = new TextDecoder();

export class Engine {
  #queue: Waiting[] = [];
  #draining: Promise<void> | undefined;
  #closing = false;

  constructor(
    private readonly core: HubCore,
    private readonly verifier: Verifier,
    private readonly hooks: EngineHooks,
  ) {}

  /** Checks a message and merges it; resolves once it is committed, throws HubError when refused. */
  async submit(bytes: Uint8Array): Promise<Accepted> {
    return this.commit(await this.prepare(bytes));
  }

  /** Every check of submit except the merge itself (frame actions pass; they are never stored). */
  async validate(bytes: Uint8Array): Promise<Accepted> {
    const accepted = await this.prepare(bytes, true);
    const data = accepted.message.data!;
    if (storeFor(data.type) !== undefined || data.type === MessageType.LINK_COMPACT_STATE) {
      const storage = await loadStorage(this.core.database.db, data.fid, this.core.now());
      if (storage.total === 0) throw new HubError("bad_request.no_storage", "no storage");
    }
    return accepted;
  }

  /** The checks before a merge; `forValidation` lets through what is valid but never stored. */
  async prepare(bytes: Uint8Array, forValidation = false): Promise<Accepted> {
    if (this.#closing) throw new HubError("unavailable", "the hub is shutting down");
    const { message } = decodeMessage(bytes);
    const now = this.core.now();
    const stateless = this.verifier.validate(bytes, now);
    // The stateless verdict is awaited below; if a state check fails first it is simply dropped.
    stateless.catch(() => undefined);
    const stateError = await this.#checkState(message);
    if (stateError !== undefined) throw stateError;
    const error = await stateless;
    if (error !== undefined) throw error;
    const data = message.data!;
    if (!forValidation && storeFor(data.type) === undefined && data.type !== MessageType.LINK_COMPACT_STATE) {
      throw new HubError("bad_request.validation_failure", "invalid message type");
    }
    return {
      message,
      bytes,
      hash: message.hash,
      tsHash: makeTsHash(data.timestamp, message.hash),
      json: writeMessageJson(message, this.core.profile),
    };
  }

  /** Queues a prepared message for the next group commit. */
  commit(accepted: Accepted): Promise<Accepted> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ accepted, resolve, reject });
      this.#draining ??= this.#drain();
    }).then(() => accepted);
  }

  /** Refuses new submits and waits for every queued merge to commit. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#draining;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#commitGroup(this.#queue.splice(0, MAX_GROUP));
    } finally {
      this.#draining = undefined;
    }
  }

  async #commitGroup(group: Waiting[]): Promise<void> {
    let outcomes: (HubError | undefined)[];
    try {
      outcomes = await runMerge(
        this.core,
        group.flatMap((w) => locksOf(w.accepted.message.data!)),
        async (ctx) => {
          const results: (HubError | undefined)[] = [];
          for (const waiting of group) results.push(await this.#mergeOne(ctx, waiting.accepted));
          return results;
        },
      );
    } catch (error) {
      // A fault (not a refusal) aborts the whole group: retry its messages one by one, so that one
      // bad apple cannot fail the others.
      if (group.length === 1) return group[0]!.reject(error);
      for (const waiting of group) await this.#commitGroup([waiting]);
      return;
    }
    group.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) waiting.resolve();
      else waiting.reject(outcome);
    });
  }

  async #mergeOne(ctx: MergeContext, accepted: Accepted): Promise<HubError | undefined> {
    const data = accepted.message.data!;
    try {
      // Checked again under the fid's lock: the key may have been removed since the first check.
      if (!(await isActiveSigner(ctx.trx, data.fid, accepted.message.signer))) {
        return unknownSigner(accepted.message.signer, data.fid);
      }
      await mergeMessage(ctx, accepted);
      return undefined;
    } catch (error) {
      if (error instanceof HubError) return error;
      throw error;
    }
  }

  /** Engine checks before the stateless ones (protocol-rules.md §3, steps 1–6). */
  async #checkState(message: Message): Promise<HubError | undefined> {
    const data = message.data;
    if (data === undefined) return new HubError("bad_request.validation_failure", "message data is missing");
    if (data.network !== this.core.network) {
      const names = profileNames(this.core.profile).network;
      return new HubError(
        "bad_request.validation_failure",
        `incorrect network: ${names[data.network] ?? data.network} (expected: ${names[this.core.network]})`,
      );
    }
    const db = this.core.database.db;
    let error = await this.#checkAccount(db, data, message.signer);
    if (error !== undefined) {
      await this.hooks.syncChain();
      error = await this.#checkAccount(db, data, message.signer);
      if (error !== undefined) return error;
    }
    return this.#checkNames(db, data);
  }

  async #checkAccount(
    db: Kysely<HubTables>,
    data: MessageData,
    signer: Uint8Array,
  ): Promise<HubError | undefined> {
    const fid = await db.selectFrom("hub_fids").select("fid").where("fid", "=", data.fid).executeTakeFirst();
    if (fid === undefined) return new HubError("bad_request.unknown_fid", `unknown fid: ${data.fid}`);
    if (!(await isActiveSigner(db, data.fid, signer))) return unknownSigner(signer, data.fid);
    return undefined;
  }

  async #checkNames(db: Kysely<HubTables>, data: MessageData): Promise<HubError | undefined> {
    const username = data.userDataBody;
    if (
      data.type === MessageType.USER_DATA_ADD &&
      username?.type === UserDataType.USERNAME &&
      username.value !== ""
    ) {
      let error = await usernameError(db, data.fid, username.value);
      if (error !== undefined && !username.value.endsWith(".eth")) {
        await this.hooks.recoverName(username.value);
        error = await usernameError(db, data.fid, username.value);
      }
      return error;
    }
    const proof = data.usernameProofBody;
    if (data.type === MessageType.USERNAME_PROOF && proof !== undefined)
      return nameServiceProofError(db, data);
    return undefined;
  }
}

function unknownSigner(signer: Uint8Array, fid: number): HubError {
  return new HubError(
    "bad_request.unknown_signer",
    `invalid signer: signer ${hex(signer)} not found for fid ${fid}`,
  );
}

/** The locks a merge of this message needs: its fid, and what it may take from another fid. */
function locksOf(data: MessageData): bigint[] {
  const locks = [fidLock(data.fid)];
  if (data.verificationAddAddressBody !== undefined) {
    locks.push(nameLock(addressKey(data.verificationAddAddressBody.address)));
  }
  if (data.usernameProofBody !== undefined) locks.push(nameLock(nameKey(data.usernameProofBody.name)));
  return locks;
}

/** A USERNAME value must name a proof held by the message's fid (protocol-rules.md §3 step 5). */
async function usernameError(
  db: Kysely<HubTables>,
  fid: number,
  name: string,
): Promise<HubError | undefined> {
  let owner: number | undefined;
  if (name.endsWith(".eth")) {
    const row = await db
      .selectFrom("hub_messages")
      .select("fid")
      .where("store", "=", StoreType.USERNAME_PROOFS)
      .where("target", "=", nameKey(new TextEncoder().encode(name)))
      .executeTakeFirst();
    owner = row === undefined ? undefined : Number(row.fid);
  } else {
    const row = await db
      .selectFrom("hub_fname_proofs")
      .select("fid")
      .where("name", "=", name)
      .executeTakeFirst();
    owner = row === undefined ? undefined : Number(row.fid);
  }
  if (owner === undefined)
    return new HubError("bad_request.validation_failure", `name ${name} is not registered`);
  if (owner !== fid)
    return new HubError("bad_request.validation_failure", `fid ${owner} does not match message fid ${fid}`);
  return undefined;
}

/**
 * Name-service proofs: the reference resolves the name on layer 1 and requires the owner to be the
 * fid's custody address or one it has verified. castnet has no layer-1 chain to resolve against, so
 * it keeps the second half: the proof's owner must be the custody address or a verified address.
 */
async function nameServiceProofError(
  db: Kysely<HubTables>,
  data: MessageData,
): Promise<HubError | undefined> {
  const proof = data.usernameProofBody!;
  if (
    proof.type !== UserNameType.USERNAME_TYPE_NAMESERVICE_L1 &&
    proof.type !== UserNameType.USERNAME_TYPE_BASENAME
  ) {
    return undefined;
  }
  const custody = await db
    .selectFrom("hub_fids")
    .select("custody")
    .where("fid", "=", data.fid)
    .executeTakeFirst();
  if (custody !== undefined && Buffer.compare(custody.custody, proof.owner) === 0) return undefined;
  const verified = await db
    .selectFrom("hub_messages")
    .select("fid")
    .where("fid", "=", data.fid)
    .where("store", "=", StoreType.VERIFICATIONS)
    .where("set_key", "=", proof.owner)
    .where("type", "=", MessageType.VERIFICATION_ADD_ETH_ADDRESS)
    .executeTakeFirst();
  if (verified !== undefined) return undefined;
  return new HubError(
    "bad_request.validation_failure",
    `name-service name ${utf8.decode(proof.name)} does not belong to fid: ${data.fid}`,
  );
}
