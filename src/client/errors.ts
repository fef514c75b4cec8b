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
export type DevchainErrorBody = DevchainComponents["schemas"]["ChainError"];

/** What every API's error has: the status and the body as it came (undefined when it was not JSON). */
export abstract class CastnetApiError<Body> extends Error {
  constructor(
    readonly status: number,
    readonly body: Body | undefined,
    sentence: string | undefined,
  ) {
    super(sentence ?? `status ${status}`);
  }
}

/** The hub refused: `body.errCode` says why, `body.details` says it to a person. */
export class HubError extends CastnetApiError<HubErrorBody> {
  override name = "HubError";
  constructor(status: number, body: HubErrorBody | undefined) {
    super(status, body, body?.details);
  }
}

/** The name registry refused: `body.error`, and `body.code` for refused transfers. */
export class RegistryError extends CastnetApiError<RegistryErrorBody> {
  override name = "RegistryError";
  constructor(status: number, body: RegistryErrorBody | undefined) {
    const said = body?.message ?? (body?.code === undefined ? body?.error : `${body.error}: ${body.code}`);
    super(status, body, said);
  }
}

/** The client API refused: `body.errors[0].message`. */
export class ClientApiError extends CastnetApiError<ClientApiErrorBody> {
  override name = "ClientApiError";
  constructor(status: number, body: ClientApiErrorBody | undefined) {
    super(status, body, body?.errors[0]?.message);
  }
}

/** The devchain refused: `body.error` is the code, `body.message` the sentence. */
export class DevchainError extends CastnetApiError<DevchainErrorBody> {
  override name = "DevchainError";
  constructor(status: number, body: DevchainErrorBody | undefined) {
    super(status, body, body?.message);
  }
}
