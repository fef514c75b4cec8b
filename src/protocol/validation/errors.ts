import { HubError } from "../errors.js";

/** Nearly every stateless check fails with this code; the reference varies only the sentence. */
export function invalid(message: string): HubError {
  return new HubError("bad_request.validation_failure", message);
}

export function invalidParam(message: string): HubError {
  return new HubError("bad_request.invalid_param", message);
}
