/**
 * The CLI keystore as the approval pages offer it (key requests at /approve, sign-ins at /sign-in).
 * The keystore is its owner's alone: the stack must be served on loopback with no admin token (only
 * then is a keystore given), the caller must be on this machine with no proxy in between, and it must
 * show the data directory's approval key (`key`; only the data directory's owner can read it).
 * Loopback and the page's own Origin prove nothing: any local process can send both. A form must
 * still come from this very origin, so that no other site's page can make the owner's browser post it.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isMachineLocal, normalOrigin } from "../http/index.js";
import { isApprovalKey } from "../wallet/approvalKey.js";
import { Keystore, type StoredAccount } from "../wallet/keystore.js";

/** The CLI keystore the approval pages may offer, and the approval key that unlocks it. */
export interface DevKeystore {
  dataDir: string;
  approvalKey: string;
}

export interface DevAccount {
  name: string;
  fid: number;
}

/**
 * The keystore's accounts and the approval key the form carries back; "locked" where the caller could
 * use them with the approval key but did not show it.
 */
export type KeystoreOffer = { key: string; accounts: readonly DevAccount[] } | "locked";

export const FORM_LIMIT = 4096;
export const approvalKeySchema = { type: "string", maxLength: 200 } as const;

/** Reads urlencoded forms (the development account forms) as flat string fields. */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(body as string)) fields[key] = value;
      done(null, fields);
    },
  );
}

/**
 * What the keystore offers this request: nothing where the stack or the caller cannot use it (the
 * page then says nothing of it), "locked" to a caller on this machine without the approval key,
 * the accounts to one with it.
 */
export function keystoreOffer(
  keystore: DevKeystore | undefined,
  request: FastifyRequest,
  key: string | undefined,
): KeystoreOffer | undefined {
  if (keystore === undefined || !isMachineLocal(request)) return undefined;
  if (!isApprovalKey(keystore.approvalKey, key)) return "locked";
  const stored = new Keystore(keystore.dataDir);
  return {
    key: keystore.approvalKey,
    accounts: stored.names().map((name) => ({ name, fid: stored.get(name).fid })),
  };
}

/** Whether the request was sent by a page of this origin (`own`, the part's public URL). */
export function fromOwnPage(request: FastifyRequest, own: string | undefined): boolean {
  const origin = request.headers.origin;
  return own !== undefined && origin !== undefined && normalOrigin(origin) === normalOrigin(own);
}

export interface Refusal {
  status: number;
  message: string;
}

export interface DevAccountAsk {
  keystore: DevKeystore | undefined;
  request: FastifyRequest;
  key: string | undefined;
  account: string;
  /** The part's own public URL: the form must come from its page. */
  own: string | undefined;
  /** Where the owner finds the link that carries the approval key, for the refusal without it. */
  keyHint: string;
}

/** The keystore account a development account form names, or why it may not be used. */
export function devAccount(ask: DevAccountAsk): { account: StoredAccount } | { refusal: Refusal } {
  const offer = keystoreOffer(ask.keystore, ask.request, ask.key);
  const refuse = (status: number, message: string) => ({ refusal: { status, message } });
  if (offer === undefined)
    return refuse(
      403,
      "Development accounts approve only on a stack served on loopback without an admin token, to a caller on the same machine.",
    );
  if (!fromOwnPage(ask.request, ask.own))
    return refuse(403, "This approval did not come from castnet's own approval page, so it was not made.");
  if (offer === "locked")
    return refuse(
      403,
      `Approving with a development account needs this machine's approval key: ${ask.keyHint}.`,
    );
  if (!offer.accounts.some((a) => a.name === ask.account))
    return refuse(400, `The keystore has no account named ${ask.account}.`);
  return { account: new Keystore(ask.keystore!.dataDir).get(ask.account) };
}
