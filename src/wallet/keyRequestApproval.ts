/** `castnet key-request approve`: approve a signed key request as the user's wallet would. */
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { KeyRequestApproval, SignedKeyRequest } from "../sdk/index.js";
import {
  KEY_GATEWAY_ADD_TYPES,
  isRealNetworkKeyGateway,
  keyGatewayAddProblem,
} from "../protocol/eip712/index.js";

export interface ApproveKeyRequestOptions {
  /** Base URL of the client API, e.g. http://127.0.0.1:2282. */
  apiUrl: string;
  token: string;
  /** The approving user's fid. */
  fid: number;
  /** The private key of the fid's custody address. */
  custodyPrivateKey: Hex;
  /**
   * Sign even when the client API asks for the real network's key gateway domain (castnet under
   * `--naming reference`): such a signature by a real fid's custody key adds the key on the real chain.
   */
  realNetworkDomain?: boolean;
}

/** The client API refused, or could not be reached; the message is the API's own sentence. */
export class KeyRequestError extends Error {
  override name = "KeyRequestError";
  constructor(
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The signer refused the real network's key gateway domain: nothing was signed or sent. */
export class RealNetworkDomainError extends KeyRequestError {
  override name = "RealNetworkDomainError";
}

const TIMEOUT_MS = 30_000;

async function send<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new KeyRequestError(
      `cannot reach the client API at ${new URL(url).origin}: is castnet running?`,
      undefined,
      {
        cause: error,
      },
    );
  }
  const body = (await response.json().catch(() => undefined)) as
    { result?: T; errors?: { message?: string }[] } | undefined;
  if (!response.ok) {
    const message = body?.errors?.[0]?.message ?? `the client API answered ${response.status}`;
    throw new KeyRequestError(message, response.status);
  }
  if (body?.result === undefined) throw new KeyRequestError("the client API answered without a result");
  return body.result;
}

/**
 * Fetches the key gateway `Add` typed data of the request for `fid`, signs it with the custody key
 * (after checking that the key is the fid's custody), and posts the approval. Returns the request,
 * now `approved` (or already `completed` when the chain mined the key add at once).
 */
export async function approveKeyRequest(options: ApproveKeyRequestOptions): Promise<SignedKeyRequest> {
  const base = options.apiUrl.replace(/\/+$/, "");
  const account = privateKeyToAccount(options.custodyPrivateKey);
  const query = new URLSearchParams({ token: options.token, fid: String(options.fid) });
  const { typedData } = await send<{ typedData: KeyRequestApproval }>(
    `${base}/v2/signed-key-request/approval?${query}`,
  );
  const problem = keyGatewayAddProblem(typedData);
  if (problem !== undefined)
    throw new KeyRequestError(
      `refusing to sign: the client API asked for something other than a key gateway Add (${problem})`,
    );
  if (isRealNetworkKeyGateway(typedData.domain) && options.realNetworkDomain !== true)
    throw new RealNetworkDomainError(
      `refusing to sign: the client API asks for the real network's KeyGateway domain (chain ${typedData.domain.chainId}, ${typedData.domain.verifyingContract}; castnet runs with --naming reference), so the signature would also add the key on the real chain if this custody key holds a real fid. Sign only with development keys, and say so with --real-network-domain`,
    );
  if (typedData.message.owner.toLowerCase() !== account.address.toLowerCase()) {
    throw new KeyRequestError(
      `the custody key given is for ${account.address}, but fid ${options.fid} is owned by ${typedData.message.owner}`,
    );
  }
  // Signed with the key gateway's own types, which keyGatewayAddProblem found the request's to be.
  const { domain, message } = typedData;
  const signature = await account.signTypedData({
    domain: { ...domain, verifyingContract: domain.verifyingContract as Address },
    types: KEY_GATEWAY_ADD_TYPES,
    primaryType: "Add",
    message: {
      ...message,
      owner: message.owner as Address,
      key: message.key as Hex,
      metadata: message.metadata as Hex,
      nonce: BigInt(message.nonce),
      deadline: BigInt(message.deadline),
    },
  });
  const { signedKeyRequest } = await send<{ signedKeyRequest: SignedKeyRequest }>(
    `${base}/v2/signed-key-request/approval`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        token: options.token,
        fid: options.fid,
        nonce: typedData.message.nonce,
        deadline: typedData.message.deadline,
        signature,
      }),
    },
  );
  return signedKeyRequest;
}
