/** The frame every page shares: head, header with navigation and search, main, footer. */
import { type Html, html } from "./html.js";

export interface PageFrame {
  title: string;
  body: Html;
  /** Seconds after which the page reloads itself (a request on its way, followed without JavaScript). */
  refreshSeconds?: number;
}

export function layout({ title, body, refreshSeconds }: PageFrame): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · castnet</title>
        ${refreshSeconds === undefined ? "" : html`<meta http-equiv="refresh" content="${refreshSeconds}" />`}
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/style.css" />
        <script src="/assets/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <nav aria-label="Explorer">
            <a class="brand" href="/">castnet</a>
            <a href="/events">Events</a>
            <a href="/channels">Channels</a>
            <a href="/docs">API docs</a>
          </nav>
          <form class="search" role="search" action="/search" method="get">
            <label for="q">Search</label>
            <input
              id="q"
              name="q"
              type="search"
              placeholder="fid, name, cast hash or address"
              required
              maxlength="200"
            />
            <button type="submit">Go</button>
          </form>
        </header>
        <main id="main">
          <h1>${title}</h1>
          ${body}
        </main>
        <footer><p>castnet explorer: every page reads the parts' public HTTP APIs.</p></footer>
      </body>
    </html> `.text;
}
