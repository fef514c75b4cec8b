/**
 * What every gRPC call is held to, in one server interceptor that runs before grpc-js reads a byte
 * of the request:
 *
 * - a receive limit of its method's own: 8 MiB for a bulk submit (as over HTTP), one message's
 *   80 KiB for SubmitMessage and ValidateMessage, 4 KiB for every other request, all of which are
 *   a few ids and a page token; a request declaring more is refused RESOURCE_EXHAUSTED from its
 *   length prefix;
 * - `--rpc-auth` on the metadata of submits, refused UNAUTHENTICATED before the body is read;
 * - a deadline, the request timeout (a client's shorter deadline still applies): DEADLINE_EXCEEDED,
 *   and when the request itself had not all arrived, its connection is closed as an HTTP
 *   connection is after a 408. It covers a unary call until its answer is queued; a server stream
 *   (Subscribe) until its request has arrived, and is then exempt, as the SSE stream is;
 * - a bound on answers a connection's peer has not read: once 16 MiB of them wait on a connection,
 *   further calls on it are refused RESOURCE_EXHAUSTED (one answer is always let through, however
 *   big), and a connection that takes none of them for the idle timeout is closed (connections.ts).
 */
import {
  type Metadata,
  ServerInterceptingCall,
  type ServerInterceptingCallInterface,
  type ServerInterceptor,
  type ServerMethodDefinition,
  type StatusObject,
  status,
} from "@grpc/grpc-js";
import type { Logger } from "../../../http/index.js";
import { HubError } from "../../../protocol/errors.js";
import type { CredentialCheck } from "../auth.js";
import { MAX_MESSAGE_BYTES } from "../../merge/engine.js";
import type { GrpcConnections, PeerConnection } from "./connections.js";
import { hubStatusOf } from "./errors.js";

/** A status as a call sends it: its metadata (trailers) optional. */
type Status = Pick<StatusObject, "code" | "details"> & { metadata?: StatusObject["metadata"] };

/** The largest request: a bulk submit, with the same limit as the HTTP API's. */
export const MAX_BULK_REQUEST_BYTES = 8 * 1024 * 1024;
/** Every request but a submit's: ids, a name or an address, paging. */
const READ_REQUEST_BYTES = 4 * 1024;
const BULK = "/HubService/SubmitBulkMessages";
const RECEIVE_LIMITS: ReadonlyMap<string, number> = new Map([
  [BULK, MAX_BULK_REQUEST_BYTES],
  ["/HubService/SubmitMessage", MAX_MESSAGE_BYTES],
  ["/HubService/ValidateMessage", MAX_MESSAGE_BYTES],
]);
const AUTHENTICATED: ReadonlySet<string> = new Set([BULK, "/HubService/SubmitMessage"]);
/** Answers waiting on one connection for its peer to read them, beyond which calls are refused. */
export const MAX_UNREAD_ANSWER_BYTES = 16 * 1024 * 1024;

/** An answer the interceptor has encoded already, to know its size before grpc-js queues it. */
class Encoded {
  constructor(readonly bytes: Buffer) {}
}

/**
 * A method's answer serialiser that passes an answer encoded by the interceptor through as it is.
 * Every method served must have it (index.ts), since the interceptor encodes every answer.
 */
export function encodedOnce<Answer>(
  serialize: (value: Answer) => Buffer,
): (value: Answer | Encoded) => Buffer {
  return (value) => (value instanceof Encoded ? value.bytes : serialize(value));
}

export interface CallLimitOptions {
  connectionOf: GrpcConnections["of"];
  requestTimeoutMs: number;
  auth: CredentialCheck | undefined;
  logger: Logger;
}

export function callLimits(options: CallLimitOptions): ServerInterceptor {
  return (method, next) => new LimitedCall(next, method, options);
}

/**
 * grpc-js (1.14) takes one receive limit for the whole server, and has no other way to set one per
 * method. The call the first interceptor is given is grpc-js's own, which decodes the request with a
 * frame decoder made at its start and reads nothing until the interceptors have run: giving that
 * decoder the method's limit here makes grpc-js refuse a longer request from its length prefix, as
 * it refuses one over the server's limit. Returns false when the call does not have that shape (a
 * grpc-js whose internals moved): the call is then refused, rather than read under the larger limit.
 */
function limitReceive(call: ServerInterceptingCallInterface, bytes: number): boolean {
  const base = call as unknown as {
    decoder?: { maxReadMessageLength?: unknown };
    maxReceiveMessageSize?: unknown;
  };
  const decoder = base.decoder;
  if (typeof decoder?.maxReadMessageLength !== "number" || typeof base.maxReceiveMessageSize !== "number")
    return false;
  decoder.maxReadMessageLength = bytes;
  // What a compressed request may inflate to.
  base.maxReceiveMessageSize = bytes;
  return true;
}

class LimitedCall extends ServerInterceptingCall {
  private readonly connection: PeerConnection | undefined;
  private deadline: NodeJS.Timeout | undefined;
  /** The request has all arrived (the client half-closed). */
  private received = false;
  private ended = false;
  /** Bytes of this call's answers queued and not yet taken by the peer. */
  private unread = 0;
  private refusal: Status | undefined;

  constructor(
    next: ServerInterceptingCallInterface,
    private readonly method: ServerMethodDefinition<unknown, unknown>,
    private readonly options: CallLimitOptions,
  ) {
    super(next, {
      start: (proceed) =>
        proceed({
          onReceiveMetadata: (metadata, forward) => {
            const refusal = this.refusal ?? this.refusalOf(metadata);
            if (refusal === undefined) return forward(metadata);
            // Not forwarded: the method never asks for the request, and no byte of it is read.
            this.sendStatus(refusal);
          },
          onReceiveHalfClose: (forward) => {
            this.received = true;
            // A server stream's deadline covers its request only.
            if (method.responseStream) clearTimeout(this.deadline);
            forward();
          },
          onCancel: () => this.end(),
        }),
    });
    this.connection = options.connectionOf(next.getConnectionInfo());
    this.connection?.callStarted();
    if (!limitReceive(next, RECEIVE_LIMITS.get(method.path) ?? READ_REQUEST_BYTES)) {
      options.logger.error(
        "grpc-js changed: the hub cannot set a method's receive limit, and refuses every call",
      );
      this.refusal = { code: status.INTERNAL, details: "the hub cannot apply its request limits" };
    } else if (this.connection === undefined) {
      this.refusal = { code: status.UNAVAILABLE, details: "the connection is closing" };
    }
    this.deadline = setTimeout(() => this.expire(), options.requestTimeoutMs);
  }

  private refusalOf(metadata: Metadata): Status | undefined {
    if (this.connection!.unread > MAX_UNREAD_ANSWER_BYTES) return this.unreadRefusal();
    if (this.options.auth === undefined || !AUTHENTICATED.has(this.method.path)) return undefined;
    const [header] = metadata.get("authorization");
    try {
      this.options.auth(typeof header === "string" ? header : undefined);
      return undefined;
    } catch (error) {
      if (error instanceof HubError) return hubStatusOf(error);
      throw error;
    }
  }

  private unreadRefusal(): Status {
    return {
      code: status.RESOURCE_EXHAUSTED,
      details: `this connection has ${this.connection!.unread} bytes of answers its client has not read; read them first`,
    };
  }

  private expire(): void {
    this.deadline = undefined;
    this.sendStatus({
      code: status.DEADLINE_EXCEEDED,
      details: this.received
        ? "the hub did not answer within the request timeout"
        : "the request did not arrive within the request timeout",
    });
    if (!this.received) this.connection?.closeSoon();
  }

  override sendMessage(message: unknown, callback: () => void): void {
    clearTimeout(this.deadline);
    const connection = this.connection;
    if (this.ended || connection === undefined) return;
    let bytes: Buffer;
    try {
      bytes = this.method.responseSerialize(message);
    } catch {
      // grpc-js fails the call as it fails any answer that does not encode.
      return super.sendMessage(message, callback);
    }
    if (connection.unread > 0 && connection.unread + bytes.length > MAX_UNREAD_ANSWER_BYTES)
      return this.sendStatus(this.unreadRefusal());
    const size = bytes.length;
    this.unread += size;
    connection.queued(size);
    super.sendMessage(new Encoded(bytes), () => {
      this.settle(size);
      callback();
    });
  }

  override sendStatus(status: Status): void {
    clearTimeout(this.deadline);
    super.sendStatus(status);
  }

  private settle(size: number): void {
    if (this.unread < size) return;
    this.unread -= size;
    this.connection?.taken(size);
  }

  /** The call is over (answered, refused, cancelled or its stream gone): what it queued is gone too. */
  private end(): void {
    this.ended = true;
    clearTimeout(this.deadline);
    if (this.unread > 0) this.settle(this.unread);
  }
}
