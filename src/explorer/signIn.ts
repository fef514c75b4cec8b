/**
 * GET /sign-in?channelToken=: a Sign In With Farcaster channel's approval page, castnet playing the
 * user's client app. The user signs the channel's sign-in message with an injected wallet (app.js
 * asks GET /sign-in/message for the text and personal_signs it) or, for the keystore's owner
 * (devKeystore.ts), with a development account whose custody key the server signs with. The relay
 * checks every signature against the chain before it completes the channel.
 */
import type { SignInRequest } from "../protocol/siwf.js";
import type { DevAccount, KeystoreOffer } from "./devKeystore.js";
import { unixTime } from "./fragments.js";
import { type Html, html } from "./html.js";

/** A channel as the page shows it: what the app asks the message to carry, and the channel's state. */
export interface SignInChannelView extends SignInRequest {
  token: string;
  state: "pending" | "completed";
  /** When the channel closes (Unix seconds). */
  expiresAt: number;
  /** The fid that signed in, once completed. */
  fid?: number;
}

export interface SignInCompletion {
  message: string;
  signature: string;
  fid: number;
}

export interface SignInPageInput {
  channel: SignInChannelView;
  /** The hub's URL, where the script finds the fid of the wallet's custody address. */
  hubUrl: string | undefined;
  keystore: KeystoreOffer | undefined;
  /** Why the last attempt was refused. */
  refusal?: string;
}

export function signInPage(input: SignInPageInput): { title: string; body: Html } {
  const { channel, refusal } = input;
  const optional = (label: string, value: string | undefined) =>
    value === undefined
      ? ""
      : html`<div>
          <dt>${label}</dt>
          <dd><code>${value}</code></dd>
        </div>`;
  const status =
    channel.state === "completed"
      ? html`<p class="notice ok" role="status" data-state="completed">
          Signed in as <a href="/fid/${channel.fid!}">fid ${channel.fid!}</a>: go back to the app.
        </p>`
      : html`<p class="notice" role="status" data-state="pending">Waiting for your approval.</p>`;
  const body = html` ${refusal ? html`<p class="notice bad" role="alert" data-refusal>${refusal}</p>` : ""}
    <section aria-labelledby="sign-in-h">
      <h2 id="sign-in-h">The sign-in</h2>
      <p>
        <bdi>${channel.domain}</bdi> asks you to sign in with your fid. Signing tells the app which fid you
        hold; it gives the app no key and no power to act for you.
      </p>
      <dl class="facts">
        <div>
          <dt>domain</dt>
          <dd><bdi>${channel.domain}</bdi></dd>
        </div>
        <div>
          <dt>URI</dt>
          <dd><code>${channel.siweUri}</code></dd>
        </div>
        <div>
          <dt>nonce</dt>
          <dd><code>${channel.nonce}</code></dd>
        </div>
        ${optional("not before", channel.notBefore)} ${optional("expires", channel.expirationTime)}
        ${optional("request id", channel.requestId)}
        <div>
          <dt>channel closes</dt>
          <dd>${unixTime(channel.expiresAt)}</dd>
        </div>
        <div>
          <dt>state</dt>
          <dd data-channel-state>${channel.state}</dd>
        </div>
      </dl>
      ${status}
    </section>
    ${channel.state === "pending" ? signInForms(input) : ""}`;
  return { title: "Sign in", body };
}

function signInForms({ channel, hubUrl, keystore }: SignInPageInput): Html {
  return html` <section
      aria-labelledby="wallet-h"
      class="wallet"
      data-sign-in
      data-token="${channel.token}"
      data-hub="${hubUrl ?? ""}"
    >
      <h2 id="wallet-h">Sign in with your wallet</h2>
      <p data-wallet-note>
        Signing in with a wallet needs JavaScript and a browser wallet (an injected
        <code>window.ethereum</code>).
      </p>
      <div data-wallet-fields hidden>
        <label for="sign-in-fid">Your fid</label>
        <input id="sign-in-fid" type="number" min="1" inputmode="numeric" data-sign-in-fid />
        <p class="hint">
          Found from the wallet's custody address when left empty; give it to sign in with an auth address.
        </p>
        <button type="button" data-wallet-approve>Sign in with wallet</button>
      </div>
      <p data-wallet-status role="status" aria-live="polite"></p>
    </section>
    ${keystore === undefined ? "" : keystoreForm(channel.token, keystore)}`;
}

function keystoreForm(token: string, keystore: KeystoreOffer): Html {
  const accounts = (offer: readonly DevAccount[], key: string) =>
    html` <form method="post" action="/sign-in/account">
        <input type="hidden" name="channelToken" value="${token}" />
        <input type="hidden" name="key" value="${key}" />
        <label for="account">Account</label>
        <select id="account" name="account">
          ${offer.map((a) => html`<option value="${a.name}">${a.name} (fid ${a.fid})</option>`)}
        </select>
        <button type="submit">Sign in with this account</button>
      </form>
      <p class="hint">
        Offered because this link carries the approval key of castnet's data directory: the server signs with
        the account's custody key from the CLI keystore.
      </p>`;
  const body =
    keystore === "locked"
      ? html`<p>
          Signing in with an account of this machine's CLI keystore needs its approval key: open this page
          with <code>&amp;key=</code> and the contents of <code>approval.key</code> in castnet's data
          directory, or run <code>castnet sign-in approve ${token} --as &lt;account&gt;</code>.
        </p>`
      : keystore.accounts.length === 0
        ? html`<p>The keystore holds no account; create one with <code>castnet account create</code>.</p>`
        : accounts(keystore.accounts, keystore.key);
  return html` <section aria-labelledby="dev-h">
    <h2 id="dev-h">Sign in with a development account</h2>
    ${body}
  </section>`;
}
