/** GET /name/:name: who holds the name now and every transfer of it, with the registry's signatures. */
import type { Transfer } from "../sdk/index.js";
import { table, unixTime } from "./fragments.js";
import { type Html, html } from "./html.js";
import { readPeople } from "./people.js";
import type { Sources } from "./sources.js";

export async function namePage(
  sources: Sources,
  name: string,
): Promise<{ title: string; body: Html } | undefined> {
  const history = await sources.get<{ transfers: Transfer[] }>(
    "registry",
    `/transfers?name=${encodeURIComponent(name)}`,
    true,
  );
  const transfers = history?.transfers ?? [];
  if (transfers.length === 0) return undefined;
  const current = transfers[transfers.length - 1]!;
  const people = await readPeople(
    sources,
    transfers.flatMap((t) => [t.from, t.to]),
  );
  const body = html` <section aria-labelledby="owner-h">
      <h2 id="owner-h">Current owner</h2>
      ${
        current.to === 0
          ? html`<p>Nobody: the name was released.</p>`
          : html`<dl class="facts">
              <div>
                <dt>held by</dt>
                <dd>${people.link(current.to)}</dd>
              </div>
              <div>
                <dt>owner address</dt>
                <dd><code>${current.owner}</code></dd>
              </div>
              <div>
                <dt>since</dt>
                <dd>${unixTime(current.timestamp)}</dd>
              </div>
            </dl>`
      }
    </section>
    <section aria-labelledby="history-h">
      <h2 id="history-h">Transfer history</h2>
      ${table(
        "Every transfer, oldest first",
        ["id", "time", "from", "to", "owner", "user signature", "server signature"],
        transfers.map((t) => [
          t.id,
          unixTime(t.timestamp),
          t.from === 0 ? "—" : people.shortLink(t.from),
          t.to === 0 ? "—" : people.shortLink(t.to),
          html`<code>${t.owner}</code>`,
          html`<code class="sig">${t.user_signature}</code>`,
          html`<code class="sig">${t.server_signature}</code>`,
        ]),
      )}
    </section>`;
  return { title: `Name ${name}`, body };
}
