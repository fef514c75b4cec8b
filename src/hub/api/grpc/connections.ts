/**
 * The gRPC port's listener. castnet accepts the TCP connections itself and hands each to grpc-js
 * (`Server.createConnectionInjector`), so that the port keeps the rules of the HTTP ports: at most
 * `maxConnections` open (beyond them Node closes new ones at once), and a connection that has not
 * begun a call within the headers timeout of being accepted (TLS handshake, HTTP/2 preface and the
 * first call's headers) is closed, as an HTTP connection is that has not sent its first request's
 * headers in that time.
 *
 * It also keeps, per connection, the bytes of answers queued for the peer that the peer has not
 * taken yet (callLimits.ts adds and removes them). A connection that owes answers and has taken none
 * for the idle timeout is closed: a peer that stops reading costs the hub what is queued for it until
 * then, and that is bounded per connection (callLimits.ts).
 */
import { createServer, type Server as NetServer, type Socket } from "node:net";
import type { ConnectionInjector } from "@grpc/grpc-js";
import type { ConnectionLimits } from "../../../http/index.js";

/** How often connections owing answers are checked: the idle rule fires this late at most. */
const STALL_CHECK_MS = 1_000;
/** Time for a last status to leave before its connection is closed. */
const CLOSE_GRACE_MS = 250;

/** One accepted connection, as the calls made on it see it. */
export class PeerConnection {
  /** Bytes of answers queued for the peer that it has not taken. */
  unread = 0;
  /** When the peer last took an answer, or began to owe one. */
  private progressAt = 0;
  private handshake: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: Socket,
    headersTimeoutMs: number,
    private readonly owing: Set<PeerConnection>,
  ) {
    this.handshake = setTimeout(() => socket.destroy(), headersTimeoutMs);
  }

  /** A call has begun: the connection is past its handshake. */
  callStarted(): void {
    if (this.handshake === undefined) return;
    clearTimeout(this.handshake);
    this.handshake = undefined;
  }

  queued(bytes: number): void {
    if (this.unread === 0) {
      this.progressAt = Date.now();
      this.owing.add(this);
    }
    this.unread += bytes;
  }

  /** Bytes queued before have left: written to the socket, or dropped with their call. */
  taken(bytes: number): void {
    this.unread -= bytes;
    this.progressAt = Date.now();
    if (this.unread === 0) this.owing.delete(this);
  }

  stalledFor(now: number): number {
    return now - this.progressAt;
  }

  /** Closes the connection once a status just sent has had time to leave. */
  closeSoon(): void {
    setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  destroy(): void {
    this.socket.destroy();
  }

  forget(): void {
    clearTimeout(this.handshake);
    this.owing.delete(this);
  }
}

const keyOf = (address: string | undefined, port: number | undefined) => `${address} ${port}`;

export class GrpcConnections {
  private readonly server: NetServer;
  private readonly byPeer = new Map<string, PeerConnection>();
  private readonly owing = new Set<PeerConnection>();
  private stallCheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly injector: ConnectionInjector,
    private readonly limits: ConnectionLimits,
  ) {
    this.server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    this.server.maxConnections = limits.maxConnections;
  }

  private accept(socket: Socket): void {
    // Reset before it was accepted: nothing to serve.
    if (socket.remoteAddress === undefined) return void socket.destroy();
    const key = keyOf(socket.remoteAddress, socket.remotePort);
    const connection = new PeerConnection(socket, this.limits.headersTimeoutMs, this.owing);
    this.byPeer.set(key, connection);
    socket.once("close", () => {
      connection.forget();
      if (this.byPeer.get(key) === connection) this.byPeer.delete(key);
    });
    this.injector.injectConnection(socket);
  }

  /** The connection a call came on, from grpc-js's description of the call's peer. */
  of(peer: {
    remoteAddress?: string | undefined;
    remotePort?: number | undefined;
  }): PeerConnection | undefined {
    return this.byPeer.get(keyOf(peer.remoteAddress, peer.remotePort));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        this.stallCheck = setInterval(() => this.closeStalled(), STALL_CHECK_MS).unref();
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  private closeStalled(): void {
    const now = Date.now();
    for (const connection of this.owing)
      if (connection.stalledFor(now) >= this.limits.idleTimeoutMs) connection.destroy();
  }

  /** Stops accepting; grpc-js ends the calls and sessions, then what remains is closed. */
  stopAccepting(): void {
    clearInterval(this.stallCheck);
    this.server.close();
  }

  destroyAll(): void {
    for (const connection of this.byPeer.values()) connection.destroy();
  }
}
