/**
 * The sign-in relay's key: a random secret in `<data dir>/relay.key` (src/storage/keyFile.ts) that a
 * client app sends to complete a sign-in channel (X-Farcaster-Auth-Relay-Key). The stack hands it
 * to the client API; `castnet sign-in approve` reads it from the file, so it is never logged nor
 * written on a command line.
 */
import { keyFile } from "../storage/keyFile.js";

export const relayKey = keyFile("relay.key", "castnet's sign-in relay key");
