/**
 * What the explorer needs of the server it is mounted on (the client API's, by the stack): the
 * signed key requests it shows for approval, read in process since the page must know a request's
 * deadline, which the public JSON leaves out; the sign-in channels the sign-in page approves, read
 * and completed in process (the relay's public route needs the relay key, which the page has no
 * use for: the signature is what completes a channel); and the server's error shape, so that the refusals
 * the server makes for page routes (schema checks, unknown files) answer and are documented in it.
 */
import type { KeyRequestView } from "./approve.js";
import type { SignInChannelView, SignInCompletion } from "./signIn.js";

export interface ExplorerHost {
  /** The request with this token, or undefined when there is none. */
  keyRequest(token: string): Promise<KeyRequestView | undefined>;
  /** The open sign-in channel with this token, or undefined when there is none (unknown, expired or delivered). */
  signInChannel(token: string): Promise<SignInChannelView | undefined>;
  /**
   * Completes the channel with a signed sign-in message, after the relay's checks; a refusal is thrown
   * as the server's error (isRefusal), which answers in the server's error shape.
   */
  completeSignIn(token: string, completion: SignInCompletion): Promise<SignInChannelView>;
  /** The server's refusal of a request (a 4xx with a sentence), as opposed to a failure. */
  isRefusal(error: unknown): error is Error & { statusCode: number };
  /** The server's JSON error body schema (with its `$id`), for the pages' OpenAPI answers. */
  errorSchema: { $id: string } & Record<string, unknown>;
  /** The server's refusal of a request sent by a page of another origin (403), answered in its error shape. */
  forbidden(message: string): Error;
  /** The server's "not found" refusal, answered in its error shape. */
  notFound(message: string): Error;
}
