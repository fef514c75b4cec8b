/** The messages of a bulk submit, however they arrive (HTTP body or gRPC request). */
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { HubError } from "../../protocol/errors.js";

const MAX_BULK_MESSAGES = 1000;

/** Splits a SubmitBulkMessagesRequest into the exact bytes of each message (field 1, repeated). */
export function bulkMessages(bytes: Uint8Array): Uint8Array[] {
  const reader = new BinaryReader(bytes);
  const messages: Uint8Array[] = [];
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === 10) messages.push(reader.bytes());
      else reader.skip(tag & 7);
      if (messages.length > MAX_BULK_MESSAGES) {
        throw new HubError(
          "bad_request.invalid_param",
          `at most ${MAX_BULK_MESSAGES} messages per bulk submit`,
        );
      }
    }
  } catch (error) {
    if (error instanceof HubError) throw error;
    throw new HubError("bad_request.parse_failure", "could not parse SubmitBulkMessagesRequest");
  }
  if (messages.length === 0)
    throw new HubError("bad_request.invalid_param", "the bulk request holds no messages");
  return messages;
}
