/**
 * castnet's look on each part's Swagger UI page: its name in the title, its logo in place of the
 * stock one, its icon, and a viewport tag so that the page reads on a phone. Swagger UI's page has no
 * option for the viewport or an inline icon, so they are written into its HTML as it is sent.
 */

/** The pages' icon (src/explorer/assets/icon.svg), drawn again here: the HTTP layer serves no page files. */
const ICON =
  '<rect width="32" height="32" rx="7" fill="#4b2fb5"/><path d="M22.5 11.2A8 8 0 1 0 22.5 20.8" fill="none" ' +
  'stroke="#fff" stroke-width="3.2" stroke-linecap="round"/><circle cx="23" cy="16" r="2.2" fill="#fff"/>';

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ICON}</svg>`;

/** The icon and the name, white on Swagger UI's dark top bar. */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 150 32" width="150" height="32">' +
  `${ICON}<text x="40" y="23" font-family="system-ui, sans-serif" font-size="21" font-weight="700" fill="#fff">castnet</text></svg>`;

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';
const ICON_LINK = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString("base64")}" />`;

/** Swagger UI's index page with the viewport tag and castnet's icon instead of its own. */
export function brandDocsPage(html: string): string {
  return html
    .replace(/<meta charset="UTF-8">/, (charset) => `${charset}\n      ${VIEWPORT}`)
    .replace(/\s*<link rel="icon" type="image\/png"[^>]*>/g, "")
    .replace("</head>", `  ${ICON_LINK}\n      </head>`);
}
