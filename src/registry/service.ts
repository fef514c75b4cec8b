import type { Kysely } from "kysely";
import type { Address, Hex } from "viem";
import type { ChainClient } from "../interfaces/chain.js";
import { type Database, SavepointCommits } from "../storage/index.js";
import { RegistryError } from "./errors.js";
import { TRANSFER_PAGE_SIZE, type Transfer, type TransferFeed } from "../interfaces/transferFeed.js";
import { isValidFname } from "../protocol/validation/names.js";
import { THROTTLE_SECONDS, TIMESTAMP_TOLERANCE_SECONDS } from "./constants.js";
import type { ClaimSigner } from "./signatures.js";
import * as store from "./store.js";
import type { TransferFilter } from "./store.js";
import type { RegistryTables } from "./tables.js";

/** POST /transfers, as the client sent it. */
export interface TransferRequest {
  name: string;
  from: number;
  to: number;
  /** The fid making the request; 0 or absent = not given. */
  fid?: number;
  /** 0x + 40 hex digits, any case. */
  owner: string;
  /** Unix seconds. */
  timestamp: number;
  signature: Hex;
}

/** A name as the CCIP-read gateway answers it. */
export interface ResolvedName {
  username: string;
  timestamp: number;
  owner: Address;
  /** Fresh server signature under the CCIP domain. */
  signature: Hex;
}

export interface RegistryServiceOptions {
  database: Database<RegistryTables>;
  chain: ChainClient;
  signer: ClaimSigner;
  /** Admin fid → the address that signs its requests. */
  admins: ReadonlyMap<number, Address>;
  reserved: ReadonlySet<string>;
  /** Unix ms. */
  now: () => number;
}

const LOCK = "registry";

/**
 * The registry's rules (docs/reference/name-registry.md §3), and the in-process `TransferFeed` the hub
 * follows.
 *
 * A POST runs the reference's pipeline in its order. Steps 1–4 (authorisation against the chain,
 * reserved names, the signature, the name rule) read no registry state, so they run before the lock,
 * and the expensive signature work runs on worker threads. Steps 5–9 and the insert run in one
 * transaction serialised registry-wide across processes (grouped with the requests that arrive
 * meanwhile): names and fids interact (one name per fid), so one lock is right, and serialised
 * inserts also commit in id order, which followers rely on.
 */
export class RegistryService implements TransferFeed {
  private readonly listeners = new Set<() => void>();
  private readonly commits: SavepointCommits<RegistryTables>;

  constructor(private readonly options: RegistryServiceOptions) {
    this.commits = new SavepointCommits(options.database, LOCK);
  }

  private get db() {
    return this.options.database.db;
  }

  nowSeconds(): number {
    return Math.floor(this.options.now() / 1000);
  }

  async signer(): Promise<Address> {
    return this.options.signer.address;
  }

  /** One page of GET /transfers. */
  listTransfers(filter: TransferFilter): Promise<Transfer[]> {
    return store.listTransfers(this.options.database, filter, TRANSFER_PAGE_SIZE);
  }

  transfersAfter(id: number): Promise<Transfer[]> {
    return this.listTransfers({ afterId: id });
  }

  async transfersByName(name: string): Promise<Transfer[]> {
    const all: Transfer[] = [];
    for (let page = await this.listTransfers({ name }); page.length > 0;) {
      all.push(...page);
      page =
        page.length < TRANSFER_PAGE_SIZE ? [] : await this.listTransfers({ name, afterId: page.at(-1)!.id });
    }
    return all;
  }

  onTransfer(listener: () => void): () => void {
    // A wrapper per call, so the same function may listen twice and stop each time separately.
    const entry = () => listener();
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /**
   * GET /transfers/current: the latest transfer of the fid's current name, of the name, or of all
   * (by timestamp); 404 when there is none or it unregistered the name.
   */
  async currentTransfer(query: { fid?: number; name?: string }): Promise<Transfer> {
    if (query.fid !== undefined) {
      const name = query.fid > 0 ? await store.nameOfFid(this.db, query.fid) : undefined;
      const latest = name === undefined ? undefined : await store.latestOfName(this.db, name);
      if (!latest) throw new RegistryError("not_found", "Could not resolve current name");
      return latest;
    }
    const latest =
      query.name !== undefined
        ? await store.latestOfName(this.db, query.name)
        : await store.latestOverall(this.db);
    if (!latest || latest.to === 0) throw new RegistryError("not_found", "No transfer found");
    return latest;
  }

  /** The name's holder for the CCIP-read gateway, countersigned afresh; undefined if unknown or unregistered. */
  async resolveName(name: string): Promise<ResolvedName | undefined> {
    const latest = await store.latestOfName(this.db, name);
    if (!latest || latest.to === 0) return undefined;
    const claim = { name: latest.username, timestamp: latest.timestamp, owner: latest.owner };
    const signature = await this.options.signer.signForCcip(claim);
    return { username: latest.username, timestamp: latest.timestamp, owner: latest.owner, signature };
  }

  /**
   * Records a registration (from 0), a transfer (admins) or an unregistration (to 0), or returns the
   * existing transfer for an identical registration replayed. Throws RegistryError with the
   * reference's code for the first rule the request breaks. `signed` runs once the request's
   * signature has verified (the per-fid rate limit spends it then).
   */
  async submitTransfer(request: TransferRequest, signed?: () => void): Promise<Transfer> {
    if (request.from === request.to) {
      throw new RegistryError(
        "bad_request",
        "from and to are the same fid: a transfer moves a name between two fids",
      );
    }
    const owner = request.owner.toLowerCase() as Address;
    const requester = request.fid || undefined;
    const adminSigner = requester === undefined ? undefined : this.options.admins.get(requester);
    const admin = adminSigner !== undefined;

    const expectedSigner = adminSigner ?? (await this.authorise(request, requester, owner));
    if (!admin && this.options.reserved.has(request.name)) throw new RegistryError("USERNAME_RESERVED");
    const claim = { name: request.name, timestamp: request.timestamp, owner };
    const adminTransfer =
      admin && requester !== undefined
        ? { ...claim, from: request.from, to: request.to, fid: requester }
        : undefined;
    const countersigned = await this.options.signer.countersign(
      claim,
      request.signature,
      expectedSigner,
      adminTransfer,
    );
    if (countersigned === undefined) throw new RegistryError("INVALID_SIGNATURE");
    signed?.();
    if (!isValidFname(request.name)) throw new RegistryError("INVALID_USERNAME");
    const { serverSignature, bound } = countersigned;

    const { transfer, inserted } = await this.commits.run(async (trx) => {
      if (admin && (await adminSignatureUsed(trx, request, owner, bound))) {
        throw new RegistryError(
          "INVALID_SIGNATURE",
          `this admin signature was already used for a transfer of ${request.name}; ` +
            "an admin signature authorises one transfer",
        );
      }
      if (request.to !== 0) {
        const held = await store.nameOfFid(trx, request.to);
        if (held !== undefined) {
          const latest = await store.latestOfName(trx, held);
          if (held === request.name && latest?.owner === owner) return { transfer: latest, inserted: false };
          throw new RegistryError("TOO_MANY_NAMES");
        }
      }
      const latest = await store.latestOfName(trx, request.name);
      const now = this.nowSeconds();
      if (
        Math.abs(request.timestamp - now) > TIMESTAMP_TOLERANCE_SECONDS ||
        (latest && request.timestamp < latest.timestamp)
      ) {
        throw new RegistryError("INVALID_TIMESTAMP");
      }
      const holder = latest && latest.to !== 0 ? latest.to : undefined;
      // "Before registering, the name must not already be registered" (SPEC A, docs/reference/spec.md): a
      // registration of a held name fails here, since the holder is never fid 0.
      if (holder !== undefined && holder !== request.from) throw new RegistryError("USERNAME_TAKEN");
      // SPEC A's state table: only the holder moves a name, so a burned name cannot be moved from a fid.
      if (request.from !== 0 && holder === undefined) throw new RegistryError("USERNAME_NOT_FOUND");
      if (!admin && latest && request.timestamp < latest.timestamp + THROTTLE_SECONDS) {
        throw new RegistryError("THROTTLED");
      }
      const recorded = await store.recordTransfer(trx, {
        timestamp: request.timestamp,
        username: request.name,
        owner,
        from: request.from,
        to: request.to,
        userSignature: request.signature,
        serverSignature,
        userFid: requester,
      });
      return { transfer: recorded, inserted: true };
    });
    if (inserted) this.notify();
    return transfer;
  }

  /** Step 1 for users: the acting fid must be the requester and the owner must be its custody address. */
  private async authorise(
    request: TransferRequest,
    requester: number | undefined,
    owner: Address,
  ): Promise<Address> {
    // SPEC A: the request's fid "must equal from or to" (Errors 2). Users register (from 0) or
    // unregister (to 0); a fid-to-fid move has no acting user fid.
    const acting = request.from === 0 ? request.to : request.to === 0 ? request.from : -1;
    if (requester !== undefined && requester !== acting) throw new RegistryError("UNAUTHORIZED");
    let custodyFid: number | undefined;
    try {
      custodyFid = await this.options.chain.fidOf(owner);
    } catch {
      throw new RegistryError("INVALID_FID_OWNER");
    }
    if (custodyFid !== acting) throw new RegistryError("INVALID_FID_OWNER");
    return owner;
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the transfer is committed either way.
      }
    }
  }
}

/**
 * Whether an earlier transfer already used this admin signature. The plain claim (name, timestamp,
 * owner) does not say which fids the name moves between, and every accepted admin transfer publishes
 * it (as `user_signature`), so it may serve once: a claim the registry has recorded is spent,
 * whatever the fids. A bound AdminTransfer is spent by the transfer it names.
 */
async function adminSignatureUsed(
  trx: Kysely<RegistryTables>,
  request: TransferRequest,
  owner: Address,
  bound: boolean,
): Promise<boolean> {
  const earlier = await store.transfersOfNameAt(trx, request.name, request.timestamp);
  return earlier.some(
    (transfer) =>
      transfer.owner === owner && (!bound || (transfer.from === request.from && transfer.to === request.to)),
  );
}
