/**
 * The SDK's typed errors: one class per API, carrying the HTTP status and the API's own error body
 * (docs/<part>.md, "Errors"), with the body's sentence as the message.
 */
import type { components as ClientApiComponents } from "./generated/clientApi.js";
import type { components as DevchainComponents } from "./generated/devchain.js";
import type { components as HubComponents } from "./generated/hub.js";
import type { components as RegistryComponents } from "./generated/registry.js";

export type HubErrorBody = HubComponents["schemas"]["HubError"];
export type RegistryErrorBody = RegistryComponents["schemas"]["RegistryError"];
export type ClientApiErrorBody = ClientApiComponents["schemas"]["ClientApiError"];
export type DevchainErrorBody = DevchainComponents["schemas"]["DevchainError"];

/** What every API's error has: the status and the body as it came (undefined when it was not JSON). */
export abstract class CastnetResponseError<Body> extends Error {
  constructor(
    readonly status: number,
    readonly body: Body | undefined,
    sentence: string | undefined,
  ) {
    super(sentence ?? `status ${status}`);
  }
}

/** The hub refused: `body.errCode` says why, `body.details` says it to a person. */
export class HubResponseError extends CastnetResponseError<HubErrorBody> {
  override name = "HubResponseError";
  constructor(status: number, body: HubErrorBody | undefined) {
    super(status, body, body?.details);
  }
}

type RegistryCode = NonNullable<RegistryErrorBody["code"]>;

/**
 * What each of the registry's transfer codes means (docs/registry.md, "POST /transfers"): its body
 * carries the code alone, as the reference's does, and clients match on it.
 */
const REGISTRY_CODES: Record<RegistryCode, string> = {
  UNAUTHORIZED: "the request's fid is not the fid the name moves to or from",
  INVALID_FID_OWNER: "the owner is not the custody address of that fid",
  USERNAME_RESERVED: "the name is reserved",
  INVALID_SIGNATURE: "the signature is not the owner's",
  INVALID_USERNAME: "a name is 1 to 16 lowercase letters, digits and hyphens, not starting with a hyphen",
  TOO_MANY_NAMES: "the fid holds a name already",
  INVALID_TIMESTAMP:
    "the timestamp is more than 10 minutes from the registry's clock, or older than the name's last transfer",
  USERNAME_TAKEN: "another fid holds the name",
  USERNAME_NOT_FOUND: "the fid does not hold the name",
  THROTTLED: "a name cannot change hands within 28 days of its last transfer",
};

/**
 * The name registry refused: `body.error`, and `body.code` for refused transfers. The message is the
 * body's sentence, or its error and code with what the code means.
 */
export class RegistryResponseError extends CastnetResponseError<RegistryErrorBody> {
  override name = "RegistryResponseError";
  constructor(status: number, body: RegistryErrorBody | undefined) {
    const code = body?.code;
    // A code this SDK does not know (a newer registry's) is given as it came.
    const meaning = code && (REGISTRY_CODES as Partial<Record<string, string>>)[code];
    const coded = code && `${body!.error}: ${code}${meaning ? ` (${meaning})` : ""}`;
    super(status, body, body?.message ?? coded ?? body?.error);
  }
}

/** The client API refused: `body.errors[0].message`. */
export class ClientApiResponseError extends CastnetResponseError<ClientApiErrorBody> {
  override name = "ClientApiResponseError";
  constructor(status: number, body: ClientApiErrorBody | undefined) {
    super(status, body, body?.errors[0]?.message);
  }
}

/** The devchain refused: `body.error` is the code, `body.message` the sentence. */
export class DevchainResponseError extends CastnetResponseError<DevchainErrorBody> {
  override name = "DevchainResponseError";
  constructor(status: number, body: DevchainErrorBody | undefined) {
    super(status, body, body?.message);
  }
}
