/**
 * The HubService definition castnet serves: the generated one (rpc.proto), except that messages and
 * events go over the wire as the bytes the hub stored, never decoded and encoded again. A submit hands
 * the engine the exact bytes it received (its hash and signature are checked against them), and a
 * read writes each stored message into the answer as it is: cheaper than decoding every row into
 * objects for the generated encoder, and byte-identical to what was signed.
 */
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { HubServiceService } from "../../../protocol/generated/rpc.js";
import { PooledText } from "../../../storage/index.js";

/**
 * A page of stored messages or events. MessagesResponse and EventsResponse have one layout: the
 * items in field 1, the next page's token in field 2.
 */
export interface BytesPage {
  /**
   * The items as the repeated field 1, framed (messages come so from the database; see framed()),
   * in a slot of memory shared with a reader thread until `unary` releases it (call.ts).
   */
  framed: Uint8Array | PooledText;
  nextPageToken: Uint8Array | undefined;
}

/** One outcome of a bulk submit: the merged message's bytes, or why it was refused. */
export type BulkAnswer =
  { message: Uint8Array } | { error: { hash: Uint8Array; errCode: string; message: string } };

const bytesOf = (value: Uint8Array): Buffer => Buffer.from(value.buffer, value.byteOffset, value.byteLength);
const raw = (value: Buffer): Buffer => value;
const NOTHING = new Uint8Array(0);

function finish(writer: BinaryWriter): Buffer {
  return bytesOf(writer.finish());
}

/** The bytes of a varint, as protobuf writes a length. */
function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}

/** Writes a length-delimited field (`tag`, its length, `bytes`) at `at`; returns where it ends. */
function putField(out: Buffer, at: number, tag: number, bytes: Uint8Array): number {
  out[at++] = tag;
  let length = bytes.length;
  while (length >= 0x80) {
    out[at++] = (length & 0x7f) | 0x80;
    length = Math.floor(length / 0x80);
  }
  out[at++] = length;
  out.set(bytes, at);
  return at + bytes.length;
}

const fieldSize = (bytes: Uint8Array): number => 1 + varintSize(bytes.length) + bytes.length;

/** Items as a page's repeated field 1, in one buffer of its exact size. */
export function framed(items: readonly Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafe(items.reduce((size, item) => size + fieldSize(item), 0));
  let at = 0;
  for (const item of items) at = putField(out, at, 10, item);
  return out;
}

/**
 * A page's answer: its framed items as they are when no page follows, else with the token after
 * them; a page in a slot is answered from the slot (grpc-js copies the answer into its frame).
 */
function encodePage(page: BytesPage): Buffer {
  const { framed, nextPageToken: token } = page;
  if (framed instanceof PooledText) {
    if (token === undefined) return framed.framed(NOTHING, NOTHING);
    const tokenField = Buffer.allocUnsafe(fieldSize(token));
    putField(tokenField, 0, 18, token);
    return framed.framed(NOTHING, tokenField);
  }
  if (token === undefined) return bytesOf(framed);
  const out = Buffer.allocUnsafe(framed.length + fieldSize(token));
  out.set(framed, 0);
  putField(out, framed.length, 18, token);
  return out;
}

/** ValidationResponse of a valid message: valid (1) and the message (2). */
function encodeValidation(message: Uint8Array): Buffer {
  return finish(new BinaryWriter().uint32(8).bool(true).uint32(18).bytes(message));
}

/** SubmitBulkMessagesResponse: one BulkMessageResponse (field 1) per message, in order. */
function encodeBulk(answers: readonly BulkAnswer[]): Buffer {
  const writer = new BinaryWriter();
  for (const answer of answers) {
    writer.uint32(10).fork();
    if ("message" in answer) writer.uint32(10).bytes(answer.message);
    else {
      const { hash, errCode, message } = answer.error;
      writer
        .uint32(18)
        .fork()
        .uint32(10)
        .bytes(hash)
        .uint32(18)
        .string(errCode)
        .uint32(26)
        .string(message)
        .join();
    }
    writer.join();
  }
  return finish(writer);
}

type Methods = typeof HubServiceService;
type Name = keyof Methods;

/** A method of the generated definition with its request and/or answer (de)serialisers replaced. */
function override<In, Out>(
  name: Name,
  request: ((bytes: Buffer) => In) | undefined,
  answer: ((value: Out) => Buffer) | undefined,
): MethodDefinition<In, Out> {
  const generated = HubServiceService[name] as unknown as MethodDefinition<In, Out>;
  return {
    ...generated,
    ...(request === undefined ? {} : { requestDeserialize: request }),
    ...(answer === undefined ? {} : { responseSerialize: answer }),
  };
}

/** Methods answering one Message, and the events: the stored bytes as they are. */
const STORED_BYTES: readonly Name[] = [
  "getCast",
  "getReaction",
  "getUserData",
  "getVerification",
  "getLink",
  "getEvent",
  "subscribe",
];

const PAGES: readonly Name[] = [
  "getEvents",
  "getCastsByFid",
  "getCastsByParent",
  "getCastsByMention",
  "getReactionsByFid",
  "getReactionsByCast",
  "getReactionsByTarget",
  "getUserDataByFid",
  "getVerificationsByFid",
  "getLinksByFid",
  "getLinksByTarget",
  "getLinkCompactStateMessageByFid",
  "getAllCastMessagesByFid",
  "getAllReactionMessagesByFid",
  "getAllVerificationMessagesByFid",
  "getAllUserDataMessagesByFid",
  "getAllLinkMessagesByFid",
  "getAllLendStorageMessagesByFid",
];

export function hubServiceDefinition(): ServiceDefinition {
  const definition: Record<string, ServiceDefinition[string]> = { ...HubServiceService };
  const set = <In, Out>(name: Name, method: MethodDefinition<In, Out>) => {
    definition[name] = method;
  };
  set("submitMessage", override("submitMessage", raw, bytesOf));
  set("validateMessage", override("validateMessage", raw, encodeValidation));
  set("submitBulkMessages", override("submitBulkMessages", raw, encodeBulk));
  for (const name of STORED_BYTES) set(name, override(name, undefined, bytesOf));
  for (const name of PAGES) set(name, override(name, undefined, encodePage));
  return definition;
}
