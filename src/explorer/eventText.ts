/**
 * Each hub event said in words: "@ana set display name to “Ana Ruiz”", "@ben followed @cleo",
 * "key added for @bob". assets/app.js says the live feed's events the same way; change both together.
 */
import { castLink, type HubMessage, outLink, shortHash } from "./fragments.js";
import type { HubEvent } from "./hubJson.js";
import { type Html, html } from "./html.js";
import type { People } from "./people.js";

const FIELDS: Record<string, string> = {
  USER_DATA_TYPE_PFP: "profile picture",
  USER_DATA_TYPE_DISPLAY: "display name",
  USER_DATA_TYPE_BIO: "bio",
  USER_DATA_TYPE_URL: "URL",
  USER_DATA_TYPE_USERNAME: "username",
  USER_DATA_TYPE_LOCATION: "location",
  USER_DATA_TYPE_TWITTER: "X username",
  USER_DATA_TYPE_GITHUB: "GitHub username",
  USER_DATA_TYPE_BANNER: "banner",
};

/** Cast text quoted in an event, cut short. */
const EXCERPT = 80;
const quote = (text: string): string => `“${text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text}”`;

/** The fids an event names: whose it is and whom it points at. */
export function eventFids(event: HubEvent): number[] {
  const message = messageOf(event);
  const data = message?.data;
  const proof =
    event.mergeUsernameProofBody?.usernameProof ?? event.mergeUsernameProofBody?.deletedUsernameProof;
  return [
    data?.fid,
    data?.linkBody?.targetFid,
    data?.reactionBody?.targetCastId?.fid,
    data?.castAddBody?.parentCastId?.fid,
    data?.lendStorageBody?.toFid,
    proof?.fid,
    event.mergeOnChainEventBody?.onChainEvent?.fid,
  ].filter((fid): fid is number => fid !== undefined && fid > 0);
}

export function messageOf(event: HubEvent): HubMessage | undefined {
  return (
    event.mergeMessageBody?.message ??
    event.pruneMessageBody?.message ??
    event.revokeMessageBody?.message ??
    event.mergeFailureBody?.message
  );
}

/** Whose event it is: the message's author, the name's holder, the chain event's fid. */
export function fidOf(event: HubEvent): number | undefined {
  const proof =
    event.mergeUsernameProofBody?.usernameProof ?? event.mergeUsernameProofBody?.deletedUsernameProof;
  return messageOf(event)?.data.fid ?? proof?.fid ?? event.mergeOnChainEventBody?.onChainEvent?.fid;
}

export function eventSentence(event: HubEvent, people: People): Html {
  switch (event.type) {
    case "HUB_EVENT_TYPE_MERGE_MESSAGE":
      return messageSentence(event.mergeMessageBody?.message, people);
    case "HUB_EVENT_TYPE_PRUNE_MESSAGE":
      return html`pruned for lack of storage: ${messageSentence(event.pruneMessageBody?.message, people)}`;
    case "HUB_EVENT_TYPE_REVOKE_MESSAGE":
      return html`revoked with its key: ${messageSentence(event.revokeMessageBody?.message, people)}`;
    case "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF":
      return nameSentence(event, people);
    case "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT":
      return chainSentence(event, people);
    case "HUB_EVENT_TYPE_MERGE_FAILURE":
      return html`a message was refused: ${event.mergeFailureBody?.reason ?? ""}`;
    case "HUB_EVENT_TYPE_BLOCK_CONFIRMED":
      return html`block ${event.blockConfirmedBody?.blockNumber ?? ""} confirmed`;
    default:
      return html`${event.type}`;
  }
}

function messageSentence(message: HubMessage | undefined, people: People): Html {
  if (message === undefined) return html`a message`;
  const { data } = message;
  const who = people.shortLink(data.fid);
  const castBy = (id: { fid: number; hash: string }) => html`${castLink(id)} by ${people.shortLink(id.fid)}`;
  const reactionTarget = () => {
    const body = data.reactionBody;
    return body?.targetCastId ? castBy(body.targetCastId) : outLink(body?.targetUrl);
  };
  const recast = data.reactionBody?.type === "REACTION_TYPE_RECAST";
  switch (data.type) {
    case "MESSAGE_TYPE_CAST_ADD": {
      const body = data.castAddBody;
      const parent = body?.parentCastId;
      return html`${who} ${parent ? html`replied to ${castBy(parent)} with` : "cast"}
      ${castLink({ fid: data.fid, hash: message.hash })}: ${quote(body?.text ?? "")}`;
    }
    case "MESSAGE_TYPE_CAST_REMOVE":
      return html`${who} removed cast <code>${shortHash(data.castRemoveBody?.targetHash ?? "")}</code>`;
    case "MESSAGE_TYPE_REACTION_ADD":
      return html`${who} ${recast ? "recast" : "liked"} ${reactionTarget()}`;
    case "MESSAGE_TYPE_REACTION_REMOVE":
      return html`${who} took back a ${recast ? "recast" : "like"} of ${reactionTarget()}`;
    case "MESSAGE_TYPE_LINK_ADD":
    case "MESSAGE_TYPE_LINK_REMOVE": {
      const target = data.linkBody?.targetFid;
      const whom = target === undefined ? html`someone` : people.shortLink(target);
      const add = data.type === "MESSAGE_TYPE_LINK_ADD";
      return data.linkBody?.type === "follow"
        ? html`${who} ${add ? "followed" : "unfollowed"} ${whom}`
        : html`${who} ${add ? "added" : "removed"} a ${data.linkBody?.type ?? ""} link to ${whom}`;
    }
    case "MESSAGE_TYPE_LINK_COMPACT_STATE":
      return html`${who} compacted their follows`;
    case "MESSAGE_TYPE_USER_DATA_ADD": {
      const body = data.userDataBody;
      const field =
        FIELDS[body?.type ?? ""] ?? (body?.type ?? "").replace("USER_DATA_TYPE_", "").toLowerCase();
      if (body === undefined || body.value === "") return html`${who} cleared their ${field}`;
      if (body.type === "USER_DATA_TYPE_PFP" || body.type === "USER_DATA_TYPE_BANNER")
        return html`${who} set a new ${field}`;
      return html`${who} set ${field} to “${body.value}”`;
    }
    case "MESSAGE_TYPE_VERIFICATION_ADD_ETH_ADDRESS":
      return html`${who} verified address <code>${data.verificationAddAddressBody?.address ?? ""}</code>`;
    case "MESSAGE_TYPE_VERIFICATION_REMOVE":
      return html`${who} removed a verified address`;
    case "MESSAGE_TYPE_USERNAME_PROOF":
      return html`${who} proved the name ${data.usernameProofBody?.name ?? ""}`;
    case "MESSAGE_TYPE_LEND_STORAGE": {
      const loan = data.lendStorageBody;
      const whom = loan === undefined ? html`someone` : people.shortLink(loan.toFid);
      return loan?.numUnits
        ? html`${who} lent ${loan.numUnits} storage ${loan.numUnits === 1 ? "unit" : "units"} to ${whom}`
        : html`${who} took back the storage lent to ${whom}`;
    }
    default:
      return html`${who} sent a ${data.type.replace("MESSAGE_TYPE_", "").toLowerCase().replaceAll("_", " ")}
      message`;
  }
}

function nameSentence(event: HubEvent, people: People): Html {
  const body = event.mergeUsernameProofBody;
  const proof = body?.usernameProof;
  const name = (value: string) => html`<a href="/name/${value}">${value}</a>`;
  if (proof !== undefined) return html`the name ${name(proof.name)} is now ${people.shortLink(proof.fid)}'s`;
  const gone = body?.deletedUsernameProof;
  return gone ? html`the name ${name(gone.name)} left ${people.shortLink(gone.fid)}` : html`a name changed`;
}

function chainSentence(event: HubEvent, people: People): Html {
  const chain = event.mergeOnChainEventBody?.onChainEvent;
  if (chain === undefined) return html`an on-chain event`;
  const who = people.shortLink(chain.fid);
  switch (chain.type) {
    case "EVENT_TYPE_ID_REGISTER":
      switch (chain.idRegisterEventBody?.eventType) {
        case "ID_REGISTER_EVENT_TYPE_REGISTER":
          return people.get(chain.fid).username === undefined
            ? html`${who} registered`
            : html`${who} registered as fid ${chain.fid}`;
        case "ID_REGISTER_EVENT_TYPE_TRANSFER":
          return html`${who} moved to custody address <code>${chain.idRegisterEventBody.to}</code>`;
        default:
          return html`${who} changed their recovery address`;
      }
    case "EVENT_TYPE_SIGNER":
      switch (chain.signerEventBody?.eventType) {
        case "SIGNER_EVENT_TYPE_ADD":
          return html`key added for ${who}`;
        case "SIGNER_EVENT_TYPE_REMOVE":
          return html`key removed from ${who}`;
        default:
          return html`keys reset for ${who}`;
      }
    case "EVENT_TYPE_STORAGE_RENT": {
      const units = chain.storageRentEventBody?.units ?? 0;
      return html`${who} got ${units} ${units === 1 ? "unit" : "units"} of storage`;
    }
    case "EVENT_TYPE_SIGNER_MIGRATED":
      return html`signers migrated`;
    default:
      return html`${who}: ${chain.type.replace("EVENT_TYPE_", "").toLowerCase().replaceAll("_", " ")}`;
  }
}
