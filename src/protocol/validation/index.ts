export { validateMessage } from "./validateMessage.js";
export { validateMessageData } from "./messageData.js";
export { validateEnsName, validateFname } from "./names.js";
export type { InvalidMessage, ValidMessage, ValidationOptions, ValidationResult } from "./types.js";
