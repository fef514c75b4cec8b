import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { AdminTransfer } from "../protocol/eip712/adminTransfer.js";
import type { UsernameProofClaim } from "../protocol/eip712/usernameProof.js";
import type { NamingProfile } from "../protocol/naming.js";
import { siblingModule, spawnWorker } from "../workers.js";

/** What every thread of the pool needs to know; the private key never leaves the process. */
export interface SignerSetup {
  naming: NamingProfile;
  privateKey: Hex;
  proofVerifyingContract: Address;
  ccipVerifyingContract: Address;
}

type Job =
  | {
      kind: "countersign";
      claim: UsernameProofClaim;
      signature: Hex;
      expectedSigner: Address;
      adminTransfer: AdminTransfer | undefined;
    }
  | { kind: "ccip"; claim: UsernameProofClaim };

export type SignatureJob = Job & { id: number };

export type SignatureResult =
  { id: number; signature: Hex | undefined; bound: boolean } | { id: number; error: string };

/** An accepted request's signature, countersigned. */
export interface Countersigned {
  serverSignature: Hex;
  /** The request was signed as the AdminTransfer it asks for, rather than as the plain claim. */
  bound: boolean;
}

/** The registry's EIP-712 key at work. */
export interface ClaimSigner {
  /** EIP-55 address of the server key (GET /signer). */
  readonly address: Address;
  /**
   * The server's signature of `claim` under the proof domain, if `signature` is `expectedSigner`'s
   * signature of `adminTransfer` (when given) or of `claim` (under either naming profile's domain);
   * undefined if it is neither.
   */
  countersign(
    claim: UsernameProofClaim,
    signature: Hex,
    expectedSigner: Address,
    adminTransfer?: AdminTransfer,
  ): Promise<Countersigned | undefined>;
  /** A fresh server signature of `claim` under the CCIP-read gateway's domain. */
  signForCcip(claim: UsernameProofClaim): Promise<Hex>;
  close(): Promise<void>;
}

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve(result: Countersigned | undefined): void; reject(error: Error): void }>;
}

function spawn(setup: SignerSetup): Worker {
  return spawnWorker(siblingModule(import.meta.url, "signatureWorker"), setup, ["viem", "viem/accounts"]);
}

/**
 * A pool of `threads` worker threads (default: one per core, at most 4), started at once so that the
 * first request does not wait for them. Jobs go to the thread with the fewest in flight; a thread
 * that dies fails its jobs and is replaced by the next job.
 */
export function createClaimSigner(
  setup: SignerSetup,
  threads = Math.min(4, availableParallelism()),
): ClaimSigner {
  const address = privateKeyToAccount(setup.privateKey).address;
  const pool: (Thread | undefined)[] = Array.from({ length: Math.max(1, threads) }, () => undefined);
  let nextId = 1;
  let closed = false;

  function start(slot: number): Thread {
    const thread: Thread = { worker: spawn(setup), pending: new Map() };
    const fail = (error: Error) => {
      if (pool[slot] === thread) pool[slot] = undefined;
      for (const job of thread.pending.values()) job.reject(error);
      thread.pending.clear();
    };
    thread.worker.on("message", (result: SignatureResult) => {
      const job = thread.pending.get(result.id);
      thread.pending.delete(result.id);
      if ("error" in result) job?.reject(new Error(`signature thread failed: ${result.error}`));
      else job?.resolve(result.signature && { serverSignature: result.signature, bound: result.bound });
    });
    thread.worker.on("error", fail);
    thread.worker.on("exit", (code) => fail(new Error(`signature thread exited with code ${code}`)));
    pool[slot] = thread;
    return thread;
  }

  function leastBusy(): Thread {
    let best: Thread | undefined;
    for (let slot = 0; slot < pool.length; slot++) {
      const thread = pool[slot] ?? start(slot);
      if (!best || thread.pending.size < best.pending.size) best = thread;
      if (thread.pending.size === 0) break;
    }
    return best!;
  }

  function submit(job: Job): Promise<Countersigned | undefined> {
    if (closed) return Promise.reject(new Error("the registry's signer is closed"));
    const thread = leastBusy();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ ...job, id });
    });
  }

  for (let slot = 0; slot < pool.length; slot++) start(slot);

  return {
    address,
    countersign: (claim, signature, expectedSigner, adminTransfer) =>
      submit({ kind: "countersign", claim, signature, expectedSigner, adminTransfer }),
    async signForCcip(claim) {
      const signed = await submit({ kind: "ccip", claim });
      if (signed === undefined) throw new Error("signature thread returned no signature");
      return signed.serverSignature;
    },
    async close() {
      closed = true;
      await Promise.all(pool.map((thread) => thread?.worker.terminate()));
    },
  };
}
