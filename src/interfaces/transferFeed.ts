import type { Address, Hex } from "viem";

/** One name change, exactly as GET /transfers renders it (SPEC A, docs/reference/spec.md). */
export interface Transfer {
  id: number;
  /** Unix seconds: the time the client signed, not the insert time. */
  timestamp: number;
  username: string;
  /** Custody address, lowercase 0x hex. */
  owner: Address;
  /** 0 for a registration. */
  from: number;
  /** 0 for an unregistration. */
  to: number;
  user_signature: Hex;
  /** 65 bytes r‖s‖v, the registry's EIP-712 signature of {name, timestamp, owner} under the proof domain. */
  server_signature: Hex;
}

/** Transfers per page of GET /transfers and of `transfersAfter`. */
export const TRANSFER_PAGE_SIZE = 100;

/**
 * How the hub follows the registry, as the reference hub does: read the signer once, then page
 * through transfers after the last id it has merged. Two implementations: the registry service
 * itself (in-process) and `httpTransferFeed` (a hub started alone with --registry-url).
 */
export interface TransferFeed {
  /** Address whose EIP-712 signatures make `server_signature`. */
  signer(): Promise<Address>;
  /** Up to 100 transfers with id > `id`, id ascending; [] when there is nothing newer. */
  transfersAfter(id: number): Promise<Transfer[]>;
  /** Every transfer of the name (exact match), id ascending. */
  transfersByName(name: string): Promise<Transfer[]>;
  /**
   * Calls `listener` when new transfers may be available (it may be called when there are none);
   * returns the function that stops listening.
   */
  onTransfer(listener: () => void): () => void;
}

/** The registry could not be reached or answered something that is not a transfer page. */
export class TransferFeedError extends Error {
  override name = "TransferFeedError";
}
