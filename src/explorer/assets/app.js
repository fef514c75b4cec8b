// castnet pages: live events from the hub's stream said in words, approval with an injected wallet,
// and profile pictures that fail to load replaced by the generated avatar. The pages work without this file; it only adds to them.
// Text from the network is set with textContent only.
"use strict";

const HASH = /^0x[0-9a-f]{40}$/;
const MAX_LIVE = 50;

function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

function eventMessage(event) {
  const body =
    event.mergeMessageBody || event.pruneMessageBody || event.revokeMessageBody || event.mergeFailureBody;
  return body && body.message;
}

function eventProof(event) {
  const body = event.mergeUsernameProofBody;
  return body && (body.usernameProof || body.deletedUsernameProof);
}

function eventFid(event) {
  const message = eventMessage(event);
  if (message) return message.data.fid;
  const proof = eventProof(event);
  if (proof) return proof.fid;
  const chain = event.mergeOnChainEventBody && event.mergeOnChainEventBody.onChainEvent;
  return chain ? chain.fid : undefined;
}

// Usernames of the fids the feed names, read once each from the hub (GET /v1/userDataByFid).
const usernames = new Map();
function username(hub, fid) {
  if (!usernames.has(fid))
    usernames.set(
      fid,
      fetch(`${hub}/v1/userDataByFid?fid=${fid}`)
        .then((response) => (response.ok ? response.json() : { messages: [] }))
        .then(({ messages }) => {
          const found = (messages || []).find(
            (m) => m.data.userDataBody && m.data.userDataBody.type === "USER_DATA_TYPE_USERNAME",
          );
          return found && found.data.userDataBody.value ? found.data.userDataBody.value : undefined;
        })
        .catch(() => undefined),
    );
  return usernames.get(fid);
}

const FIELDS = {
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

const words = (name, prefix) => String(name).replace(prefix, "").toLowerCase().replaceAll("_", " ");
const excerpt = (text) => `“${text.length > 80 ? `${text.slice(0, 80)}…` : text}”`;

// The event said in words, as the events page says it (src/explorer/eventText.ts): pieces of text
// and links, with `who(fid)` naming a fid.
function sentence(event, who) {
  const castLink = (fid, hash) =>
    HASH.test(hash)
      ? element("a", `${hash.slice(0, 10)}…`, { href: `/cast/${Number(fid)}/${hash}` })
      : "a cast";
  const message = eventMessage(event);
  const about = (m) => {
    const data = m.data;
    const by = who(data.fid);
    const reaction = data.reactionBody || {};
    const recast = reaction.type === "REACTION_TYPE_RECAST";
    const target = () =>
      reaction.targetCastId
        ? [
            castLink(reaction.targetCastId.fid, reaction.targetCastId.hash),
            " by ",
            who(reaction.targetCastId.fid),
          ]
        : [String(reaction.targetUrl || "")];
    switch (data.type) {
      case "MESSAGE_TYPE_CAST_ADD": {
        const body = data.castAddBody || {};
        const parent = body.parentCastId;
        const how = parent
          ? ["replied to ", castLink(parent.fid, parent.hash), " by ", who(parent.fid), " with"]
          : ["cast"];
        return [by, " ", ...how, " ", castLink(data.fid, m.hash), ": ", excerpt(String(body.text || ""))];
      }
      case "MESSAGE_TYPE_CAST_REMOVE":
        return [
          by,
          " removed cast ",
          String((data.castRemoveBody || {}).targetHash || "").slice(0, 10) + "…",
        ];
      case "MESSAGE_TYPE_REACTION_ADD":
        return [by, recast ? " recast " : " liked ", ...target()];
      case "MESSAGE_TYPE_REACTION_REMOVE":
        return [by, ` took back a ${recast ? "recast" : "like"} of `, ...target()];
      case "MESSAGE_TYPE_LINK_ADD":
      case "MESSAGE_TYPE_LINK_REMOVE": {
        const link = data.linkBody || {};
        const whom = link.targetFid === undefined ? "someone" : who(link.targetFid);
        const add = data.type === "MESSAGE_TYPE_LINK_ADD";
        return link.type === "follow"
          ? [by, add ? " followed " : " unfollowed ", whom]
          : [by, ` ${add ? "added" : "removed"} a ${link.type} link to `, whom];
      }
      case "MESSAGE_TYPE_LINK_COMPACT_STATE":
        return [by, " compacted their follows"];
      case "MESSAGE_TYPE_USER_DATA_ADD": {
        const body = data.userDataBody || {};
        const field = FIELDS[body.type] || words(body.type, "USER_DATA_TYPE_");
        if (!body.value) return [by, ` cleared their ${field}`];
        if (body.type === "USER_DATA_TYPE_PFP" || body.type === "USER_DATA_TYPE_BANNER")
          return [by, ` set a new ${field}`];
        return [by, ` set ${field} to “${body.value}”`];
      }
      case "MESSAGE_TYPE_VERIFICATION_ADD_ETH_ADDRESS":
        return [by, ` verified address ${(data.verificationAddAddressBody || {}).address}`];
      case "MESSAGE_TYPE_VERIFICATION_REMOVE":
        return [by, " removed a verified address"];
      case "MESSAGE_TYPE_USERNAME_PROOF":
        return [by, ` proved the name ${(data.usernameProofBody || {}).name}`];
      case "MESSAGE_TYPE_LEND_STORAGE": {
        const loan = data.lendStorageBody || {};
        const whom = loan.toFid === undefined ? "someone" : who(loan.toFid);
        return loan.numUnits
          ? [by, ` lent ${loan.numUnits} storage ${loan.numUnits === 1 ? "unit" : "units"} to `, whom]
          : [by, " took back the storage lent to ", whom];
      }
      default:
        return [by, ` sent a ${words(data.type, "MESSAGE_TYPE_")} message`];
    }
  };
  switch (event.type) {
    case "HUB_EVENT_TYPE_MERGE_MESSAGE":
      return message ? about(message) : ["a message"];
    case "HUB_EVENT_TYPE_PRUNE_MESSAGE":
      return ["pruned for lack of storage: ", ...(message ? about(message) : ["a message"])];
    case "HUB_EVENT_TYPE_REVOKE_MESSAGE":
      return ["revoked with its key: ", ...(message ? about(message) : ["a message"])];
    case "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF": {
      const body = event.mergeUsernameProofBody || {};
      if (body.usernameProof)
        return ["the name ", body.usernameProof.name, " is now ", who(body.usernameProof.fid), "'s"];
      if (body.deletedUsernameProof)
        return ["the name ", body.deletedUsernameProof.name, " left ", who(body.deletedUsernameProof.fid)];
      return ["a name changed"];
    }
    case "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT": {
      const chain = (event.mergeOnChainEventBody || {}).onChainEvent;
      if (!chain) return ["an on-chain event"];
      const by = who(chain.fid);
      if (chain.type === "EVENT_TYPE_ID_REGISTER") {
        const type = (chain.idRegisterEventBody || {}).eventType;
        if (type === "ID_REGISTER_EVENT_TYPE_REGISTER")
          return by.textContent.startsWith("@")
            ? [by, ` registered as fid ${chain.fid}`]
            : [by, " registered"];
        if (type === "ID_REGISTER_EVENT_TYPE_TRANSFER")
          return [by, ` moved to custody address ${chain.idRegisterEventBody.to}`];
        return [by, " changed their recovery address"];
      }
      if (chain.type === "EVENT_TYPE_SIGNER") {
        const type = (chain.signerEventBody || {}).eventType;
        if (type === "SIGNER_EVENT_TYPE_ADD") return ["key added for ", by];
        if (type === "SIGNER_EVENT_TYPE_REMOVE") return ["key removed from ", by];
        return ["keys reset for ", by];
      }
      if (chain.type === "EVENT_TYPE_STORAGE_RENT") {
        const units = Number((chain.storageRentEventBody || {}).units || 0);
        return [by, ` got ${units} ${units === 1 ? "unit" : "units"} of storage`];
      }
      if (chain.type === "EVENT_TYPE_SIGNER_MIGRATED") return ["signers migrated"];
      return [by, `: ${words(chain.type, "EVENT_TYPE_")}`];
    }
    case "HUB_EVENT_TYPE_MERGE_FAILURE":
      return [`a message was refused: ${(event.mergeFailureBody || {}).reason || ""}`];
    case "HUB_EVENT_TYPE_BLOCK_CONFIRMED":
      return [`block ${(event.blockConfirmedBody || {}).blockNumber} confirmed`];
    default:
      return [String(event.type)];
  }
}

/** The fids an event names (eventText.ts's eventFids). */
function namedFids(event) {
  const message = eventMessage(event);
  const data = message ? message.data : {};
  const proof = eventProof(event);
  const chain = event.mergeOnChainEventBody && event.mergeOnChainEventBody.onChainEvent;
  return [
    data.fid,
    data.linkBody && data.linkBody.targetFid,
    data.reactionBody && data.reactionBody.targetCastId && data.reactionBody.targetCastId.fid,
    data.castAddBody && data.castAddBody.parentCastId && data.castAddBody.parentCastId.fid,
    data.lendStorageBody && data.lendStorageBody.toFid,
    proof && proof.fid,
    chain && chain.fid,
  ].filter((fid) => Number.isSafeInteger(fid) && fid > 0);
}

async function eventItem(hub, event) {
  const names = new Map();
  await Promise.all(namedFids(event).map(async (fid) => names.set(fid, await username(hub, fid))));
  const who = (fid) =>
    element("a", names.get(fid) ? `@${names.get(fid)}` : `fid ${Number(fid)}`, {
      href: `/fid/${Number(fid)}`,
    });
  const item = element("li");
  item.append(element("span", `#${event.id}`, { class: "event-id" }), " ");
  item.append(...sentence(event, who));
  return item;
}

function startLiveFeed(list) {
  const hub = list.dataset.hub;
  const status = list.parentElement.querySelector("[data-live-status]");
  if (!hub || typeof EventSource !== "function") return;
  const type = list.dataset.type;
  const fid = list.dataset.fid ? Number(list.dataset.fid) : undefined;
  const source = new EventSource(`${hub}/v1/events/stream`);
  status.textContent = "Connecting to the hub's event stream…";
  source.onopen = () => (status.textContent = "Live: new events appear here as the hub merges them.");
  source.onerror = () => (status.textContent = "The event stream was interrupted; reconnecting…");
  // Items are made in the order events arrive, each after the names it needs are read.
  let shown = Promise.resolve();
  source.onmessage = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (type && event.type !== type) return;
    if (fid !== undefined && eventFid(event) !== fid) return;
    const item = eventItem(hub, event);
    shown = shown.then(async () => {
      list.prepend(await item);
      while (list.children.length > MAX_LIVE) list.lastElementChild.remove();
    });
  };
}

async function api(path, init) {
  const response = await fetch(path, init);
  const body = await response.json().catch(() => ({}));
  if (!response.ok)
    throw new Error(
      (body.errors && body.errors[0] && body.errors[0].message) ||
        `the client API answered ${response.status}`,
    );
  return body.result;
}

async function followRequest(token, say) {
  for (;;) {
    const { signedKeyRequest } = await api(`/v2/signed-key-request?token=${encodeURIComponent(token)}`);
    const state = document.querySelector("[data-request-state]");
    if (state) state.textContent = signedKeyRequest.state;
    if (signedKeyRequest.state === "completed") {
      say(`Approved: the key is now a signer of fid ${signedKeyRequest.userFid}.`, "completed");
      return;
    }
    say("Approved; waiting for the key add to be mined…", "approved");
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// The fid whose custody address `address` is, from the hub's id registry events.
async function custodyFid(hub, address) {
  const lookup = await fetch(
    `${hub}/v1/onChainIdRegistryEventByAddress?address=${encodeURIComponent(address)}`,
  );
  if (!lookup.ok) throw new Error(`The wallet's address ${address} is not the custody address of any fid.`);
  return (await lookup.json()).fid;
}

async function approveWithWallet(section, say) {
  const token = section.dataset.token;
  const ethereum = window.ethereum;
  const [address] = await ethereum.request({ method: "eth_requestAccounts" });
  if (typeof address !== "string") throw new Error("The wallet gave no account.");
  const fid = await custodyFid(section.dataset.hub, address);
  const query = new URLSearchParams({ token, fid: String(fid) });
  const { typedData } = await api(`/v2/signed-key-request/approval?${query}`);
  if (String(typedData.message.owner).toLowerCase() !== address.toLowerCase())
    throw new Error(`The wallet's address ${address} is not the custody address of fid ${fid}.`);
  // The wallet signs what the server sends: sign a key gateway Add on chain 10 and nothing else, and
  // say plainly when the domain is the real network's (castnet under --naming reference).
  const domain = typedData.domain ?? {};
  if (
    typedData.primaryType !== "Add" ||
    !/ KeyGateway$/.test(String(domain.name)) ||
    Number(domain.chainId) !== 10
  )
    throw new Error("The client API asked for a signature other than a key gateway Add; nothing was signed.");
  if (
    section.dataset.realNetwork === "true" &&
    !window.confirm(
      "This approval is signed under the real network's KeyGateway domain: if this wallet's address holds a real fid, " +
        "the signature would also add the key to it on the real chain. Sign only with a development wallet. Sign?",
    )
  )
    throw new Error("Not signed: the wallet's signature would be valid on the real network too.");
  say("Sign the request in your wallet…", "signing");
  const signature = await ethereum.request({
    method: "eth_signTypedData_v4",
    params: [address, JSON.stringify(typedData)],
  });
  await api("/v2/signed-key-request/approval", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      token,
      fid,
      nonce: typedData.message.nonce,
      deadline: typedData.message.deadline,
      signature,
    }),
  });
  await followRequest(token, say);
}

// Sign In With Farcaster: the wallet personal_signs the channel's message (the server builds its
// text as @farcaster/auth-client does), and the page's route completes the channel after the relay's checks.
async function signInWithWallet(section, say) {
  const token = section.dataset.token;
  const ethereum = window.ethereum;
  const [address] = await ethereum.request({ method: "eth_requestAccounts" });
  if (typeof address !== "string") throw new Error("The wallet gave no account.");
  const input = section.querySelector("[data-sign-in-fid]");
  if (!input.value) input.value = String(await custodyFid(section.dataset.hub, address));
  const fid = Number(input.value);
  const query = new URLSearchParams({ channelToken: token, address, fid: String(fid) });
  const { message } = await json(`/sign-in/message?${query}`);
  say("Sign the message in your wallet…", "signing");
  const signature = await ethereum.request({ method: "personal_sign", params: [message, address] });
  const done = await json("/sign-in/wallet", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channelToken: token, message, signature, fid }),
  });
  const state = document.querySelector("[data-channel-state]");
  if (state) state.textContent = "completed";
  say(`Signed in as fid ${done.fid}: go back to the app.`, "completed");
}

// A same-origin JSON route of the pages: its answer, or its refusal's sentence as the error.
async function json(path, init) {
  const response = await fetch(path, init);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = body.errors && body.errors[0] && body.errors[0].message;
    throw new Error(message ? sentenceOf(message) : `The server answered ${response.status}.`);
  }
  return body;
}

const sentenceOf = (text) => {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

function startWallet(section, approve) {
  const button = section.querySelector("[data-wallet-approve]");
  const note = section.querySelector("[data-wallet-note]");
  const status = section.querySelector("[data-wallet-status]");
  const say = (text, state) => {
    status.textContent = text;
    status.dataset.state = state;
  };
  if (!window.ethereum || typeof window.ethereum.request !== "function") {
    note.textContent = "No browser wallet was found on this page (no window.ethereum).";
    return;
  }
  note.textContent =
    "Your wallet signs with your fid's custody address (or, to sign in, one of its auth addresses); nothing is approved without that signature.";
  const fields = section.querySelector("[data-wallet-fields]");
  (fields || button).hidden = false;
  button.addEventListener("click", () => {
    button.disabled = true;
    say("Asking the wallet…", "asking");
    approve(section, say).catch((error) => {
      say(error && error.message ? error.message : String(error), "refused");
      button.disabled = false;
    });
  });
}

// A profile picture is a URL its owner chose; when its host does not answer with an image, the page
// shows the generated avatar instead of a broken one. It may have failed before this deferred script ran.
function fallBackIfBroken(image) {
  const fallback = image.dataset.fallback;
  const swap = () => {
    if (fallback && image.getAttribute("src") !== fallback) image.src = fallback;
  };
  if (image.complete && image.naturalWidth === 0) swap();
  else image.addEventListener("error", swap, { once: true });
}

document.querySelectorAll("img.avatar").forEach(fallBackIfBroken);
document.querySelectorAll("[data-live-feed]").forEach(startLiveFeed);
document.querySelectorAll("[data-wallet]").forEach((section) => startWallet(section, approveWithWallet));
document.querySelectorAll("[data-sign-in]").forEach((section) => startWallet(section, signInWithWallet));
