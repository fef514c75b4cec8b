// castnet pages: live events from the hub's stream, approval with an injected wallet, and profile
// pictures that fail to load left out. The pages work without this file; it only adds to them.
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
  const body = event.mergeMessageBody || event.pruneMessageBody || event.revokeMessageBody;
  return body && body.message;
}

function eventFid(event) {
  const message = eventMessage(event);
  if (message) return message.data.fid;
  const proof = event.mergeUsernameProofBody && event.mergeUsernameProofBody.usernameProof;
  if (proof) return proof.fid;
  const chain = event.mergeOnChainEventBody && event.mergeOnChainEventBody.onChainEvent;
  return chain ? chain.fid : undefined;
}

function eventItem(event) {
  const item = element("li");
  item.append(element("span", `#${event.id}`, { class: "event-id" }), " ");
  item.append(String(event.type).replace("HUB_EVENT_TYPE_", "").toLowerCase().replaceAll("_", " "), ": ");
  const message = eventMessage(event);
  if (message) {
    item.append(String(message.data.type).replace("MESSAGE_TYPE_", "").toLowerCase());
    const text = message.data.castAddBody && message.data.castAddBody.text;
    if (message.data.type === "MESSAGE_TYPE_CAST_ADD" && HASH.test(message.hash)) {
      item.append(" ");
      const link = element("a", message.hash.slice(0, 10) + "…", {
        href: `/cast/${Number(message.data.fid)}/${message.hash}`,
      });
      item.append(link);
      if (typeof text === "string") item.append(" ", element("q", text.slice(0, 140)));
    }
  }
  const fid = eventFid(event);
  if (Number.isSafeInteger(fid)) {
    item.append(" · ");
    item.append(element("a", `fid ${fid}`, { href: `/fid/${fid}` }));
  }
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
  source.onmessage = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (type && event.type !== type) return;
    if (fid !== undefined && eventFid(event) !== fid) return;
    list.prepend(eventItem(event));
    while (list.children.length > MAX_LIVE) list.lastElementChild.remove();
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

async function approveWithWallet(section, say) {
  const token = section.dataset.token;
  const ethereum = window.ethereum;
  const [address] = await ethereum.request({ method: "eth_requestAccounts" });
  if (typeof address !== "string") throw new Error("The wallet gave no account.");
  const lookup = await fetch(
    `${section.dataset.hub}/v1/onChainIdRegistryEventByAddress?address=${encodeURIComponent(address)}`,
  );
  if (!lookup.ok) throw new Error(`The wallet's address ${address} is not the custody address of any fid.`);
  const { fid } = await lookup.json();
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

function startWallet(section) {
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
    "Your wallet signs with the custody address of your fid; nothing is approved without that signature.";
  button.hidden = false;
  button.addEventListener("click", () => {
    button.disabled = true;
    say("Asking the wallet…", "asking");
    approveWithWallet(section, say).catch((error) => {
      say(error && error.message ? error.message : String(error), "refused");
      button.disabled = false;
    });
  });
}

// A profile picture is a URL its owner chose; when its host does not answer with an image, the page
// leaves it out rather than show a broken one. It may have failed before this deferred script ran.
function dropIfBroken(image) {
  if (image.complete && image.naturalWidth === 0) image.remove();
  else image.addEventListener("error", () => image.remove(), { once: true });
}

document.querySelectorAll("img.avatar").forEach(dropIfBroken);
document.querySelectorAll("[data-live-feed]").forEach(startLiveFeed);
document.querySelectorAll("[data-wallet]").forEach(startWallet);
