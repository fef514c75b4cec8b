/** The hub's OpenAPI document: what it is, its operation groups, its message and error schemas (SPEC C). */
import type { ApiDescription } from "../http/index.js";
import { eventJsonSchemas } from "../protocol/json/eventSchema.js";
import { messageJsonSchemas } from "../protocol/json/messageSchema.js";
import type { NamingProfile } from "../protocol/naming.js";
import { hubErrorSchema } from "./errors.js";

export function hubOpenApi(profile: NamingProfile): ApiDescription {
  return {
    title: "castnet hub",
    description:
      "The hub takes protobuf messages signed by a registered Ed25519 key of a fid, " +
      "validates and stores them, and serves them as JSON with the on-chain events, username proofs and hub " +
      `events it follows. Enum names are spelled under the "${profile.name}" naming profile. (SPEC C; SPEC rules 4, 5)`,
    tags: [
      { name: "Info", description: "The hub's identity and counts." },
      { name: "Casts", description: "What fids post, and the replies to them (SPEC C. Message envelope)." },
      { name: "Reactions", description: "Likes and recasts." },
      { name: "Links", description: "Follows and other links between fids." },
      { name: "User data", description: "Profile fields." },
      { name: "Verifications", description: "Addresses verified by fids." },
      { name: "On-chain events", description: "Signer, id-register and storage events (SPEC Events 5)." },
      { name: "Username proofs", description: "Which fid holds which name (SPEC C. Username proof)." },
      { name: "Events", description: "Hub events in merge order (SPEC Events 1-4)." },
      { name: "Submit", description: "Messages in, as protobuf (SPEC Errors 1, 3)." },
      { name: "Activity", description: "Aggregates the client API reads." },
      { name: "Admin", description: "Operator routes." },
    ],
    schemas: [...messageJsonSchemas(profile), ...eventJsonSchemas(), hubErrorSchema],
    errorSchema: hubErrorSchema.$id,
    refusals: {
      404: "No such message, event, proof or fid (errCode not_found).",
      429: "A caller or fid over its rate limit.",
      501: "Not implemented by castnet (errCode not_implemented).",
    },
    securitySchemes: {
      rpcAuth: {
        type: "http",
        scheme: "basic",
        description:
          "The hub's --rpc-auth user and password, needed by submits when it is set (SPEC Authentication 3).",
      },
    },
  };
}
