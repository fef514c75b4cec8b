/**
 * `castnet sign-in approve`: complete an app's sign-in channel as the user's client app would
 * (docs/reference/sign-in.md §1.2, §1.3, §3): read the pending channel, sign the sign-in message
 * it asks for with the user's key, and send it to the relay with the relay's key.
 */
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { requestedSignInMessage, type SignInRequest } from "../protocol/siwf.js";

export interface ApproveSignInOptions {
  /** Base URL of the client API (the relay), e.g. http://127.0.0.1:2282. */
  apiUrl: string;
  /** The channel's token, or its url (`…?channelToken=…`). */
  channel: string;
  /** The fid signing in. */
  fid: number;
  /** The private key of the fid's custody address (or of one of its auth addresses). */
  privateKey: Hex;
  /** The relay's key (X-Farcaster-Auth-Relay-Key). */
  relayKey: string;
}

/** The relay refused, or could not be reached; the message is the relay's own sentence. */
export class SignInApprovalError extends Error {
  override name = "SignInApprovalError";
}

/** The completed channel as the relay answers it. */
export interface CompletedSignIn {
  state: string;
  nonce: string;
  fid: number;
  authMethod: string;
  message: string;
  signatureParams: { domain: string; siweUri: string };
}

interface PendingChannel {
  state: string;
  signatureParams: SignInRequest;
}

const TIMEOUT_MS = 30_000;

/** A channel token from the token itself or from a channel's url, as auth-client's parseSignInURI reads it. */
export function channelTokenOf(channel: string): string {
  if (!URL.canParse(channel)) return channel;
  const token = new URL(channel).searchParams.get("channelToken");
  if (token === null)
    throw new SignInApprovalError(`${channel} names no channel (it has no channelToken parameter)`);
  return token;
}

export async function approveSignIn(options: ApproveSignInOptions): Promise<CompletedSignIn> {
  const base = options.apiUrl.replace(/\/+$/, "");
  const token = channelTokenOf(options.channel);
  const bearer = { authorization: `Bearer ${token}` };
  // Reading a pending channel spends nothing; only a completed one's answer is given once.
  const status = await relay<PendingChannel>(`${base}/v1/channel/status`, { headers: bearer });
  if (status.status !== 202)
    throw new SignInApprovalError(
      `sign-in channel ${token} is already ${status.body.state}; a channel completes once`,
    );
  const account = privateKeyToAccount(options.privateKey);
  const message = requestedSignInMessage(status.body.signatureParams, account.address, options.fid);
  const signature = await account.signMessage({ message });
  const completed = await relay<CompletedSignIn>(`${base}/v1/channel/authenticate`, {
    method: "POST",
    headers: {
      ...bearer,
      "content-type": "application/json",
      "x-farcaster-auth-relay-key": options.relayKey,
    },
    body: JSON.stringify({ message, signature, fid: options.fid }),
  });
  return completed.body;
}

async function relay<T>(url: string, init: RequestInit): Promise<{ status: number; body: T }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new SignInApprovalError(
      `cannot reach the client API at ${new URL(url).origin}: is castnet running?`,
      {
        cause: error,
      },
    );
  }
  const body = (await response.json().catch(() => undefined)) as
    (T & { errors?: { message?: string }[] }) | undefined;
  if (!response.ok || body === undefined)
    throw new SignInApprovalError(body?.errors?.[0]?.message ?? `the client API answered ${response.status}`);
  return { status: response.status, body };
}
