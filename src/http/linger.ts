import type { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";

/** How much of a refused body is still read after the answer, and for how long, before the socket closes. */
const LINGER_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 5_000;

/**
 * Closes the connection of a request answered before its body was read (a 413, or any refusal that
 * comes before the body is parsed) without losing the answer. Closing at once while the client is still writing makes the kernel send a reset, and a
 * client that is still writing usually reports that reset instead of the status it was sent. So
 * the server says `Connection: close`, sends the answer, half-closes, and keeps reading and
 * discarding what the client still sends, up to a bound in bytes and time, before it lets go.
 * True when it does so.
 */
export function lingerIfBodyUnread(request: IncomingMessage, response: ServerResponse): boolean {
  const declaresBody =
    request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0;
  const socket = request.socket;
  // Fastify's inject has no socket to linger on.
  if (request.complete || !declaresBody || !(socket instanceof Socket)) return false;
  response.setHeader("connection", "close");
  let discarded = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.destroy();
  };
  socket.on("data", count);
  socket.once("close", () => clearTimeout(timer));
  // Node ends a `Connection: close` exchange with destroySoon(), which closes the socket as soon as
  // the answer is flushed; this socket instead stays readable until the client is done or a bound is hit.
  socket.destroySoon = () => {
    socket.end();
    socket.once("end", () => socket.destroy());
    socket.resume();
  };
  return true;
}
