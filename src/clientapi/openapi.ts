/** The client API's OpenAPI document: what it is, its operation groups and its error body (SPEC B). */
import type { ApiDescription } from "../http/index.js";
import { clientApiErrorSchema } from "./errors.js";

export const clientApiOpenApi: ApiDescription = {
  title: "castnet client API",
  description:
    "The client API: channels, channel follows, power badges, actions, blocks and signed key " +
    "requests, and the sign-in relay; paths versioned /v1/ and /v2/ side by side. (SPEC B; SPEC Versioning 1)",
  tags: [
    { name: "Channels", description: "Channels and their members (SPEC B. Channel)." },
    { name: "Channel follows", description: "Who follows which channel." },
    { name: "Power badges", description: "The fids holding a power badge, recalculated weekly." },
    { name: "Actions", description: "Cast and composer actions apps can install." },
    { name: "Blocks", description: "Who blocks whom." },
    {
      name: "Signed key requests",
      description:
        "An app asks a user to add its key: pending → approved → completed (SPEC Signed key request).",
    },
    {
      name: "Sign in",
      description:
        "The Sign In With Farcaster relay: an app opens a channel, the user's client app completes it, the app reads it once.",
    },
    { name: "Sponsors", description: "Sponsorship credits (SPEC Authentication 6)." },
    {
      name: "Quick Auth",
      description: "Sign In With Farcaster for a JWT, as @farcaster/quick-auth calls its server.",
    },
    {
      name: "Explorer",
      description: "HTML pages: the explorer of the whole stack and the key-approval page.",
    },
  ],
  schemas: [clientApiErrorSchema],
  errorSchema: clientApiErrorSchema.$id,
  refusals: {
    402: "The sponsor has too few credits (SPEC Authentication 6).",
    404: "No such channel, token, action or sponsor.",
    409: "At odds with the current state: already approved, expired or taken.",
    429: "Too many requests from this address; Retry-After says when to try again.",
  },
};
