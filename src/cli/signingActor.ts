/**
 * Who signs a message: `--as` names an account of the keystore, or the token of a key request that
 * `key-request create` made. A request's key, once the user approved it and the devchain added it,
 * signs for that user: the app acting for them, as any app does with a signer it asked for.
 */
import type { Context } from "./context.js";
import { CliError } from "./http/request.js";
import type { Signer } from "./messages.js";

export async function signingActor(context: Context): Promise<Signer> {
  const as = context.options.as;
  const keystore = context.keystore();
  const requested = as === undefined || keystore.has(as) ? undefined : keystore.requestedKeys()[as];
  if (as === undefined || requested === undefined) return context.actor();
  // The keystore knows the app and the key; the client API knows who approved it and whether it is on chain.
  const { signedKeyRequest } = await context.api.keyRequest(as);
  if (signedKeyRequest.state !== "completed" || signedKeyRequest.userFid === undefined)
    throw new CliError(
      `key request ${as} is ${signedKeyRequest.state}: its key signs once a user approved it and the devchain added it (castnet key-request show ${as})`,
    );
  return {
    name: `${requested.app} for fid ${signedKeyRequest.userFid}`,
    account: { fid: signedKeyRequest.userFid, signerPrivateKey: requested.privateKey },
  };
}
