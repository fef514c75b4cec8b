/**
 * Messages as they travel: decoding submitted bytes without losing the exact data bytes, building
 * and signing new ones, and the tsHash ordering key.
 */
import { ed25519PublicKey, signEd25519 } from "./ed25519.js";
import { encodeMessageData } from "./encodeMessageData.js";
import { HubError } from "./errors.js";
import { HashScheme, Message, MessageData, SignatureScheme } from "./generated/message.js";
import { blake3_20 } from "./hash.js";

export interface DecodedMessage {
  message: Message;
  /** data_bytes exactly as received; undefined when the message carried only `data`. */
  dataBytes: Uint8Array | undefined;
}

/**
 * Decodes a protobuf Message. When it carries data_bytes, `message.data` is replaced by their
 * decoding, so that what is validated is exactly what was hashed and signed. Throws
 * `bad_request.parse_failure` for bytes that are not a Message.
 */
export function decodeMessage(bytes: Uint8Array): DecodedMessage {
  let message: Message;
  try {
    message = Message.decode(bytes);
  } catch (cause) {
    throw new HubError("bad_request.parse_failure", "could not parse Message", { cause });
  }
  if (message.dataBytes === undefined) return { message, dataBytes: undefined };
  try {
    message.data = MessageData.decode(message.dataBytes);
  } catch (cause) {
    throw new HubError("bad_request.parse_failure", "could not parse dataBytes as MessageData", { cause });
  }
  return { message, dataBytes: message.dataBytes };
}

export function encodeMessage(message: Message): Uint8Array {
  return Message.encode(message).finish();
}

/** 4-byte big-endian timestamp ‖ 20-byte hash: byte order = (timestamp, hash) order. */
export function makeTsHash(timestamp: number, hash: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + hash.length);
  out[0] = timestamp >>> 24;
  out[1] = (timestamp >>> 16) & 0xff;
  out[2] = (timestamp >>> 8) & 0xff;
  out[3] = timestamp & 0xff;
  out.set(hash, 4);
  return out;
}

/**
 * Builds a signed message the way the reference client library does: data and data_bytes both set,
 * BLAKE3-20 hash of the bytes, Ed25519 signature over the hash.
 */
export function signMessageData(data: MessageData, privateKey: Uint8Array): Message {
  const dataBytes = encodeMessageData(data);
  const hash = blake3_20(dataBytes);
  return {
    data,
    hash,
    hashScheme: HashScheme.BLAKE3,
    signature: signEd25519(hash, privateKey),
    signatureScheme: SignatureScheme.ED25519,
    signer: ed25519PublicKey(privateKey),
    dataBytes,
  };
}
