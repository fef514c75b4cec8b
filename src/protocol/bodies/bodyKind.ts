import type { BinaryWriter } from "@bufbuild/protobuf/wire";
import type { HubError } from "../errors.js";
import type { MessageData, MessageType } from "../generated/message.js";
import type { NamingProfile } from "../naming.js";

/** The MessageData keys of message.proto's `body` oneof. */
export type BodyField = Exclude<keyof MessageData, "type" | "fid" | "timestamp" | "network">;

export type Body<F extends BodyField> = NonNullable<MessageData[F]>;

/**
 * Everything the shared code (validation, JSON, encoding) needs to know of one MessageData body.
 * Its functions are methods, whose parameters TypeScript compares both ways, so that the kind of
 * one body is also a `BodyKind` of any body: the element type of the single list in index.ts.
 */
export interface BodyKind<F extends BodyField = BodyField, Json = unknown> {
  /** Its MessageData key, which is also its key in the hub's JSON. */
  readonly field: F;
  /** Its field number in message.proto's MessageData. */
  readonly fieldNumber: number;
  /** The message types this hub accepts with it: none for those it refuses as `invalid message type`. */
  readonly types: readonly MessageType[];
  /**
   * Its stateless checks, after the common ones; absent when none run synchronously. `nowMs` is the
   * checking hub's clock, for the bodies whose rules bound their timestamp.
   */
  validate?(body: Body<F>, data: MessageData, nowMs: number): HubError | undefined;
  /** Its JSON object, in the reference hub's key order and byte encodings. */
  render(body: Body<F>, profile: NamingProfile): Json;
  /** The same JSON as text, for the bodies on the hub's hot read paths; others are stringified. */
  write?(body: Body<F>, profile: NamingProfile): string;
  /** A second key the reference hub writes the same JSON under, after every body. */
  readonly alias?: string;
  /** Writes its fields as the reference client library does (encodeMessageData.ts). */
  encode(body: Body<F>, writer: BinaryWriter): void;
  /** Whether that encoding differs from the canonical one: an empty packed repeated field. */
  writesEmptyPacked?(body: Body<F>): boolean;
}
