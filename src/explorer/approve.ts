/**
 * GET /approve?token=: the signed key request's approval page. The user approves with an injected
 * wallet (app.js signs the typed data of GET /v2/signed-key-request/approval with the fid's custody
 * address through eth_signTypedData_v4) or, for the keystore's owner (devKeystore.ts says who that
 * is), with a development account of the CLI keystore: the server then signs with that account's
 * custody key and posts the approval to the same route a wallet's approval goes to. Nothing approves
 * without a custody signature the client API checks.
 */
import { avatarPath } from "./avatar.js";
import type { KeystoreOffer } from "./devKeystore.js";
import { outLink, type HubPage, unixTime } from "./fragments.js";
import { type Html, html } from "./html.js";
import { personOf, ownOrigin, readPeople } from "./people.js";
import { type Sources, withQuery } from "./sources.js";

export interface KeyRequestView {
  token: string;
  key: string;
  state: "pending" | "approved" | "completed";
  requestFid: number;
  isSponsored: boolean;
  userFid?: number;
  deadline: number;
}

export interface ApprovePageInput {
  request: KeyRequestView;
  nowSeconds: number;
  /** What the keystore offers, or undefined where the stack or the caller cannot use it. */
  keystore: KeystoreOffer | undefined;
  /** Approvals are signed under the real network's key gateway domain: the keystore form asks to confirm it. */
  realNetworkDomain: boolean;
  /** Why the last attempt was refused. */
  refusal?: string;
}

export async function approvePage(
  sources: Sources,
  input: ApprovePageInput,
): Promise<{ title: string; body: Html; refreshSeconds?: number }> {
  const { request, nowSeconds, keystore, realNetworkDomain, refusal } = input;
  const [app, proofs, users] = await Promise.all([
    sources.get<HubPage>("hub", withQuery("/v1/userDataByFid", { fid: request.requestFid }), true),
    sources.get<{ proofs: { name: string; type: string }[] }>(
      "hub",
      withQuery("/v1/userNameProofsByFid", { fid: request.requestFid }),
      true,
    ),
    readPeople(sources, request.userFid === undefined ? [] : [request.userFid]),
  ]);
  const profile = new Map(
    (app?.messages ?? []).map((m) => [m.data.userDataBody?.type, m.data.userDataBody?.value]),
  );
  // The name the registry gave the app's fid is checked; its display name is whatever the app chose
  // (anyone may call itself "Official Wallet"), so it comes second, marked, and isolated in <bdi> so
  // that direction marks in it cannot reorder the text around it.
  const registryName = proofs?.proofs.find((proof) => proof.type === "USERNAME_TYPE_FNAME")?.name;
  const displayName = profile.get("USER_DATA_TYPE_DISPLAY");
  const picture = personOf(request.requestFid, app?.messages ?? [], ownOrigin(sources.urls().api)).picture;
  // The app as the wallet must read it: the registry's name first, what it calls itself after.
  const website = profile.get("USER_DATA_TYPE_URL");
  const appLine = [
    registryName
      ? html`<bdi>@${registryName}</bdi> (its name at the registry), `
      : html`no name at the registry, `,
    html`<a href="/fid/${request.requestFid}">fid ${request.requestFid}</a>`,
    displayName ? html` · calls itself <bdi>${displayName}</bdi> (self-declared)` : "",
    website ? html` · ${outLink(website)}` : "",
  ];
  const expired = request.state === "pending" && request.deadline < nowSeconds;
  const status: Html =
    request.state === "completed"
      ? html`<p class="notice ok" role="status" data-state="completed">
          Approved: the key is now a signer of ${users.link(request.userFid!)}.
        </p>`
      : request.state === "approved"
        ? html`<p class="notice" role="status" data-state="approved">
            Approved by ${users.link(request.userFid!)}; waiting for the key add to be mined…
          </p>`
        : expired
          ? html`<p class="notice bad" role="status" data-state="expired">
              This request expired at ${unixTime(request.deadline)}; the app must make a new one.
            </p>`
          : html`<p class="notice" role="status" data-state="pending">Waiting for your approval.</p>`;

  const body = html` ${refusal ? html`<p class="notice bad" role="alert" data-refusal>${refusal}</p>` : ""}
    <section aria-labelledby="request-h">
      <h2 id="request-h">The request</h2>
      <img
        class="avatar"
        src="${picture}"
        data-fallback="${avatarPath(request.requestFid)}"
        alt=""
        width="48"
        height="48"
      />
      <dl class="facts">
        <div>
          <dt>app</dt>
          <dd>${appLine}</dd>
        </div>
        <div>
          <dt>key</dt>
          <dd><code>${request.key}</code></dd>
        </div>
        <div>
          <dt>deadline</dt>
          <dd>${unixTime(request.deadline)}</dd>
        </div>
        <div>
          <dt>sponsored</dt>
          <dd>${request.isSponsored ? "yes" : "no"}</dd>
        </div>
        <div>
          <dt>state</dt>
          <dd data-request-state>${expired ? "expired" : request.state}</dd>
        </div>
      </dl>
      ${status}
    </section>
    ${request.state === "pending" && !expired ? approveForms(request.token, sources.urls().hub, keystore, realNetworkDomain) : ""}`;
  return {
    title: "Approve a key",
    body,
    refreshSeconds: request.state === "approved" ? 2 : undefined,
  };
}

function approveForms(
  token: string,
  hubUrl: string | undefined,
  keystore: KeystoreOffer | undefined,
  realNetworkDomain: boolean,
): Html {
  return html` <section
      aria-labelledby="wallet-h"
      class="wallet"
      data-wallet
      data-token="${token}"
      data-hub="${hubUrl ?? ""}"
      data-real-network="${realNetworkDomain ? "true" : "false"}"
    >
      <h2 id="wallet-h">Approve with your wallet</h2>
      <p data-wallet-note>
        Approving with a wallet needs JavaScript and a browser wallet (an injected
        <code>window.ethereum</code>).
      </p>
      <button type="button" data-wallet-approve hidden>Approve with wallet</button>
      <p data-wallet-status role="status" aria-live="polite"></p>
    </section>
    ${keystore === undefined ? "" : keystoreForm(token, keystore, realNetworkDomain)}`;
}

function keystoreForm(token: string, keystore: KeystoreOffer, realNetworkDomain: boolean): Html {
  const body =
    keystore === "locked"
      ? html`<p>
          Approving with an account of this machine's CLI keystore needs its approval key: open the link that
          <code>castnet key-request create</code> printed, or run
          <code>castnet key-request approve ${token} --as &lt;account&gt;</code>.
        </p>`
      : keystore.accounts.length === 0
        ? html`<p>The keystore holds no account; create one with <code>castnet account create</code>.</p>`
        : html` <form method="post" action="/approve">
              <input type="hidden" name="token" value="${token}" />
              <input type="hidden" name="key" value="${keystore.key}" />
              <label for="account">Account</label>
              <select id="account" name="account">
                ${keystore.accounts.map((a) => html`<option value="${a.name}">${a.name} (fid ${a.fid})</option>`)}
              </select>
              ${
                realNetworkDomain
                  ? html`<p class="notice bad">
                        castnet runs with the reference naming, so this approval is signed under the real
                        network's KeyGateway domain: were the account's custody key a real fid's, the
                        signature would add this key on the real chain too.
                      </p>
                      <label
                        ><input type="checkbox" name="realNetwork" value="yes" required /> The account holds
                        development keys only: sign under the real network's domain</label
                      >`
                  : ""
              }
              <button type="submit">Approve with this account</button>
            </form>
            <p class="hint">
              Offered because this link carries the approval key of castnet's data directory: the server signs
              with the account's custody key from the CLI keystore.
            </p>`;
  return html` <section aria-labelledby="dev-h">
    <h2 id="dev-h">Approve with a development account</h2>
    ${body}
  </section>`;
}
