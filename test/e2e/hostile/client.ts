/** HTTP by node:http, so that any method, header, path byte and body can be sent as it is. */
import http from "node:http";
import net from "node:net";

export interface Req {
  method: string;
  path: string;
  body?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  contentType: string;
  text: string;
}

const agents = new Map<string, http.Agent>();
let sent = 0;

function agentFor(base: string): http.Agent {
  let agent = agents.get(base);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    agents.set(base, agent);
  }
  return agent;
}

function sendOnce(base: string, req: Req, fresh: boolean): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const body =
    req.body === undefined ? undefined : typeof req.body === "string" ? Buffer.from(req.body) : req.body;
  const headers: Record<string, string> = { ...req.headers };
  if (req.contentType !== undefined) headers["content-type"] = req.contentType;
  if (body !== undefined) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        host: hostname,
        port,
        method: req.method,
        path: req.path,
        headers,
        agent: fresh ? false : agentFor(base),
        timeout: 15_000,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("timeout", () => request.destroy(new Error("no answer within 15 s")));
    request.on("error", (error: NodeJS.ErrnoException) => {
      // A server may answer (413, 415) before it has read a large body, then close: the answer counts.
      if (answered) return;
      error.message = `${error.message}${request.reusedSocket ? " (reused socket)" : ""}`;
      reject(error);
    });
    request.end(body);
  });
}

/** One request; a keep-alive socket the server closed meanwhile is retried once on a new connection. */
export async function send(base: string, req: Req): Promise<Reply> {
  sent++;
  try {
    return await sendOnce(base, req, false);
  } catch (error) {
    if (/reused socket/.test((error as Error).message)) return sendOnce(base, req, true);
    throw error;
  }
}

/** Raw bytes on a new connection, for requests no HTTP client would send; the status line and body come back. */
export function sendRaw(base: string, bytes: Uint8Array): Promise<Reply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error("no answer within 15 s")));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
      const split = raw.indexOf("\r\n\r\n");
      const head = split < 0 ? raw : raw.slice(0, split);
      resolve({
        status,
        contentType: /^content-type:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? "",
        text: split < 0 ? "" : raw.slice(split + 4),
      });
    });
  });
}

/** How many requests `send` has sent in this process. */
export function requestsSent(): number {
  return sent;
}

/** Closes the kept-alive sockets, so that the stack can close. */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
