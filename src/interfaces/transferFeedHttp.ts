/** The registry's transfer feed over HTTP: what a hub started apart from its registry follows. */
import type { Address } from "viem";
import { TRANSFER_PAGE_SIZE, type Transfer, type TransferFeed, TransferFeedError } from "./transferFeed.js";

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
