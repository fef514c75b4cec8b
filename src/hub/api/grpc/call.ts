/** What every group of gRPC methods shares: its context, the unary wrapper, requests' paging. */
import type { handleUnaryCall, ServerUnaryCall, UntypedServiceImplementation } from "@grpc/grpc-js";
import type { Logger } from "../../../http/index.js";
import { HubError } from "../../../protocol/errors.js";
import { type Database, PooledText } from "../../../storage/index.js";
import type { StoreType } from "../../data/keys.js";
import { framedPage } from "../../data/framedPages.js";
import { messageBySetKey, type MessageList } from "../../data/messageReads.js";
import { pageSizeOf, type KeyPageRequest } from "../../data/paging.js";
import type { HubService } from "../../service.js";
import type { HubTables } from "../../data/tables.js";
import { statusOfThrown } from "./errors.js";
import type { BytesPage } from "./wire.js";

export interface GrpcContext {
  service: HubService;
  /** Read directly only where an answer is stored bytes (messages, events) that the service renders as JSON. */
  database: Database<HubTables>;
  logger: Logger;
}

/** The methods of one group, by their names in the service definition. */
export type Handlers = UntypedServiceImplementation;

/**
 * A unary method from an async function; a thrown HubError becomes its gRPC status. A page answered
 * from a slot of reader memory gets its slot back once the callback returns: grpc-js serialises an
 * answer within it (and copies it into its frame), or has dropped the call. Should it ever defer
 * that, the serialiser would find the slot released and fail the call (PooledText) rather than
 * send another read's bytes.
 */
export function unary<Request, Answer>(
  ctx: GrpcContext,
  handle: (request: Request, call: ServerUnaryCall<Request, Answer>) => Promise<Answer>,
): handleUnaryCall<Request, Answer> {
  return (call, callback) => {
    handle(call.request, call).then(
      (answer) => {
        try {
          callback(null, answer);
        } finally {
          if (isPooledPage(answer)) answer.framed.release();
        }
      },
      (error: unknown) => callback(statusOfThrown(error, ctx.logger)),
    );
  };
}

function isPooledPage(answer: unknown): answer is BytesPage & { framed: PooledText } {
  return typeof answer === "object" && answer !== null && (answer as BytesPage).framed instanceof PooledText;
}

export interface PagingFields {
  pageSize?: number | undefined;
  pageToken?: Uint8Array | undefined;
  reverse?: boolean | undefined;
}

/** Message lists are keyed by tsHash: 4 bytes of timestamp, 20 of hash. */
export const MESSAGE_KEY_LENGTH = 24;

/**
 * A request's page; its token is the key of the previous page's last item, of `keyLength` bytes (or
 * one of those lengths, for a list of items of several kinds).
 */
export function pageOf(request: PagingFields, keyLength: number | readonly number[]): KeyPageRequest {
  const token = request.pageToken;
  const after = token === undefined || token.length === 0 ? undefined : token;
  const lengths = typeof keyLength === "number" ? [keyLength] : keyLength;
  if (after !== undefined && !lengths.includes(after.length)) {
    throw new HubError("bad_request.invalid_param", "pageToken is not a page token this hub gave out");
  }
  return { pageSize: pageSizeOf(request.pageSize), reverse: request.reverse === true, after };
}

export async function messagePage(
  ctx: GrpcContext,
  list: MessageList,
  request: PagingFields,
): Promise<BytesPage> {
  const page = await framedPage(ctx.database, list, pageOf(request, MESSAGE_KEY_LENGTH));
  return { framed: page.framed, nextPageToken: page.next };
}

/** The stored bytes of the live message at a set key, or not_found as the HTTP API answers it. */
export async function storedMessage(
  ctx: GrpcContext,
  key: { fid: number; store: StoreType; setKey: Uint8Array; type: number },
  what: string,
): Promise<Uint8Array> {
  const row = await messageBySetKey(ctx.database.db, key.fid, key.store, key.setKey, key.type);
  if (row === undefined) throw new HubError("not_found", `${what} not found`);
  return row.message;
}

/** A request field the reference requires, refused as the HTTP API refuses a missing parameter. */
export function required<Value>(value: Value | undefined, message: string): Value {
  if (value === undefined) throw new HubError("bad_request.invalid_param", message);
  return value;
}
