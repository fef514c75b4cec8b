/**
 * Messages as they travel: decoding submitted bytes without losing the exact data bytes, building
 * and signing new ones, and the tsHash ordering key.
 */
import { BinaryReader, BinaryWriter } from "@bufbuild/protobuf/wire";
import { ed25519PublicKey, signEd25519 } from "./ed25519.js";
import { encodeMessageData } from "./encodeMessageData.js";
import { HubError } from "./errors.js";
import { HashScheme, Message, MessageData, SignatureScheme } from "./generated/message.js";
import { blake3_20 } from "./hash.js";

/** A message whose data is present: what every check after decoding, and every store, works on. */
export type MessageWithData = Message & { data: MessageData };

/** The message, typed as having data; `bad_request.validation_failure` when it has none. */
export function requireData(message: Message): MessageWithData {
  if (message.data === undefined)
    throw new HubError("bad_request.validation_failure", "message data is missing");
  return message as MessageWithData;
}

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

/** Tag of each Message field by field number (1 data … 7 data_bytes), as the generated decoder expects it. */
const FIELD_TAGS = [-1, 10, 18, 24, 34, 40, 50, 58] as const;
const DATA = 1;
const DATA_BYTES = 7;

/**
 * The form a message is stored and served in: its known fields once each (the last, as a decoder
 * reads them), no unknown fields, and no `data` beside data_bytes unless it is the same bytes, so
 * that nothing kept says anything the signature does not cover. Bytes already in that form (what
 * clients send) are returned as they are; others are rebuilt from their fields' slices.
 */
export function canonicalMessageBytes(bytes: Uint8Array): Uint8Array {
  // Where the last occurrence of each field starts and ends; -1: absent.
  const starts = [-1, -1, -1, -1, -1, -1, -1, -1];
  const ends = [-1, -1, -1, -1, -1, -1, -1, -1];
  let canonical = true;
  const reader = new BinaryReader(bytes);
  try {
    while (reader.pos < reader.len) {
      const start = reader.pos;
      const tag = reader.uint32();
      const field = tag >>> 3;
      if ((tag & 7) === 2) {
        // Skipped by hand: the reader's skip would allocate a view of the field.
        const length = reader.uint32();
        reader.pos += length;
        if (reader.pos > reader.len) throw new RangeError("premature end of the message");
      } else reader.skip(tag & 7, field);
      if (FIELD_TAGS[field] !== tag) canonical = false;
      else {
        if (starts[field] !== -1) canonical = false;
        starts[field] = start;
        ends[field] = reader.pos;
      }
    }
  } catch (cause) {
    throw new HubError("bad_request.parse_failure", "could not parse Message", { cause });
  }
  if (starts[DATA] !== -1 && starts[DATA_BYTES] !== -1 && !sameField(bytes, starts, ends)) {
    starts[DATA] = -1;
    canonical = false;
  }
  if (canonical) return bytes;
  let length = 0;
  for (let field = 1; field < starts.length; field++) {
    if (starts[field] !== -1) length += ends[field]! - starts[field]!;
  }
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = Buffer.allocUnsafe(length);
  let offset = 0;
  for (let field = 1; field < starts.length; field++) {
    if (starts[field] !== -1) offset += source.copy(out, offset, starts[field], ends[field]);
  }
  return out;
}

/** Whether `data` and data_bytes hold the same bytes (after their one-byte tags: length, content). */
function sameField(bytes: Uint8Array, starts: number[], ends: number[]): boolean {
  const a = starts[DATA]! + 1;
  const b = starts[DATA_BYTES]! + 1;
  const length = ends[DATA]! - a;
  if (ends[DATA_BYTES]! - b !== length) return false;
  for (let i = 0; i < length; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

/**
 * A submitted message in its stored form (canonicalMessageBytes), decoded. A message that carries
 * only `data` is encoded again: its hash covers the encoding of `data`, so anything else inside it
 * is unsigned.
 */
export function decodeSubmitted(received: Uint8Array): DecodedMessage & { bytes: Uint8Array } {
  const bytes = canonicalMessageBytes(received);
  const decoded = decodeMessage(bytes);
  if (decoded.dataBytes !== undefined || decoded.message.data === undefined) return { ...decoded, bytes };
  return { ...decoded, bytes: encodeMessage(decoded.message) };
}

/**
 * A message's wire bytes. When it carries data_bytes, its `data` field is written as those very
 * bytes, as the reference client library's encoder does by using one encoder for both: re-encoding
 * `data` here could differ from data_bytes (empty packed fields, see encodeMessageData.ts), and a
 * hub keeps only what the signature covers, so the message would be stored and served without
 * `data`.
 */
export function encodeMessage(message: Message): Uint8Array {
  if (message.dataBytes === undefined || message.data === undefined) return Message.encode(message).finish();
  const writer = new BinaryWriter();
  writer.uint32((DATA << 3) | 2).bytes(message.dataBytes);
  Message.encode({ ...message, data: undefined }, writer);
  return writer.finish();
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
