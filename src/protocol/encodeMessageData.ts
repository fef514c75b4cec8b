/**
 * MessageData → bytes exactly as the reference client library encodes it. Its (older) ts-proto
 * writes packed repeated fields even when they are empty (`12 00` for no mentions), so a canonical
 * encoder produces different bytes, hence a different hash, for many casts. A message that arrives
 * without data_bytes was hashed over the sender's encoding, which in practice is this one.
 */
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { BODIES, type BodyKind } from "./bodies/index.js";
import { SEVERAL_BODIES, onlyBody } from "./bodies/onlyBody.js";
import { MessageData } from "./generated/message.js";

const WRITE_EMPTY_PACKED = BODIES.filter((kind) => kind.writesEmptyPacked !== undefined);

function hasEmptyPackedField(data: MessageData): boolean {
  for (const kind of WRITE_EMPTY_PACKED) {
    const body = data[kind.field];
    if (body !== undefined && kind.writesEmptyPacked!(body)) return true;
  }
  return false;
}

function writeBody(writer: BinaryWriter, kind: BodyKind, data: MessageData): void {
  const body = data[kind.field];
  if (body === undefined) return;
  // A length-delimited field: tag = field number << 3 | wire type 2.
  writer.uint32((kind.fieldNumber << 3) | 2).fork();
  kind.encode(body, writer);
  writer.join();
}

/** The canonical encoding (empty repeated fields omitted), as the successor node computes it. */
export function encodeMessageDataCanonical(data: MessageData): Uint8Array {
  return MessageData.encode(data).finish();
}

export function encodeMessageData(data: MessageData): Uint8Array {
  if (!hasEmptyPackedField(data)) return MessageData.encode(data).finish();
  const writer = new BinaryWriter();
  if (data.type !== 0) writer.uint32(8).int32(data.type);
  if (data.fid !== 0) writer.uint32(16).uint64(data.fid);
  if (data.timestamp !== 0) writer.uint32(24).uint32(data.timestamp);
  if (data.network !== 0) writer.uint32(32).int32(data.network);
  const only = onlyBody(data);
  if (only >= 0) writeBody(writer, BODIES[only]!, data);
  else if (only === SEVERAL_BODIES) for (const kind of BODIES) writeBody(writer, kind, data);
  return writer.finish();
}
