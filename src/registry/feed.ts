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

const POLL_INTERVAL_MS = 5_000;
const REQUEST_TIMEOUT_MS = 5_000;

async function getJson(url: URL): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw new TransferFeedError(
      `registry at ${url.origin} is unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!response.ok) throw new TransferFeedError(`registry answered ${response.status} for ${url.pathname}`);
  try {
    return await response.json();
  } catch {
    throw new TransferFeedError(`registry answered ${url.pathname} with a body that is not JSON`);
  }
}

const HEX = /^0x[0-9a-fA-F]*$/;

function isTransfer(value: unknown): value is Transfer {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(t.id) &&
    Number.isSafeInteger(t.timestamp) &&
    typeof t.username === "string" &&
    typeof t.owner === "string" &&
    HEX.test(t.owner) &&
    Number.isSafeInteger(t.from) &&
    Number.isSafeInteger(t.to) &&
    typeof t.user_signature === "string" &&
    HEX.test(t.user_signature) &&
    typeof t.server_signature === "string" &&
    HEX.test(t.server_signature)
  );
}

/**
 * Follows a registry over HTTP (GET /signer, GET /transfers). `onTransfer` polls nothing itself: it
 * wakes listeners every 5 s while at least one listens, and they ask `transfersAfter` for news, as
 * the reference hub's poll loop does.
 */
export function httpTransferFeed(baseUrl: string): TransferFeed {
  const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;

  async function page(query: Record<string, string>): Promise<Transfer[]> {
    const url = new URL("transfers", base);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const body = (await getJson(url)) as { transfers?: unknown };
    if (!Array.isArray(body?.transfers) || !body.transfers.every(isTransfer)) {
      throw new TransferFeedError("registry answered GET /transfers without a list of transfers");
    }
    return body.transfers;
  }

  return {
    async signer() {
      const body = (await getJson(new URL("signer", base))) as { signer?: unknown };
      if (typeof body?.signer !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(body.signer)) {
        throw new TransferFeedError("registry answered GET /signer without an address");
      }
      return body.signer as Address;
    },
    transfersAfter(id) {
      return page({ from_id: String(id) });
    },
    async transfersByName(name) {
      const all: Transfer[] = [];
      for (let after = 0; ;) {
        const batch = await page({ name, from_id: String(after) });
        all.push(...batch);
        const last = batch.at(-1);
        if (batch.length < TRANSFER_PAGE_SIZE || last === undefined) return all;
        after = last.id;
      }
    },
    onTransfer(listener) {
      // A wrapper per call, so the same function may listen twice and stop each time separately.
      const entry = () => listener();
      listeners.add(entry);
      timer ??= setInterval(() => {
        for (const notify of listeners) notify();
      }, POLL_INTERVAL_MS);
      timer.unref();
      return () => {
        listeners.delete(entry);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  };
}
