export { validateMessage } from "./validateMessage.js";
export { validateMessageData } from "./messageData.js";
export { validateEnsName, validateFname } from "./names.js";
export type { InvalidMessage, ValidMessage, ValidationOptions, ValidationResult } from "./types.js";
export type { KeyAuthority } from "./types.js";
export {
  ADMISSIBLE_KEY_SCOPES,
  KEY_REMOVE_BY_CUSTODY,
  KEY_REMOVE_BY_ITSELF,
  MAX_GASLESS_KEYS_PER_FID,
  MAX_KEY_ADD_SCOPES,
  MAX_KEY_TTL_SECONDS,
} from "./gaslessKey.js";
