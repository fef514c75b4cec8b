/**
 * The icon names an action may use: a subset of the Primer Octicons set (docs/reference/client-api.md §4).
 */
export const ACTION_ICONS: readonly string[] = (
  "number search image alert code meter ruby video filter stop plus info check book question mail home star " +
  "inbox lock eye heart unlock play tag calendar database hourglass key gift sync archive bell bookmark briefcase " +
  "bug clock credit-card globe infinity light-bulb location megaphone moon note pencil pin quote reply rocket " +
  "shield stopwatch tools trash comment gear file hash square sun zap sign-out sign-in paste mortar-board history " +
  "plug bell-slash diamond id-badge person smiley pulse beaker flame people person-add broadcast graph shield-check " +
  "shield-lock telescope webhook accessibility report verified blocked bookmark-slash checklist circle-slash " +
  "cross-reference dependabot device-camera device-camera-video device-desktop device-mobile dot eye-closed " +
  "iterations key-asterisk law link-external list-ordered list-unordered log mention milestone mute no-entry " +
  "north-star organization paintbrush paper-airplane project shield-x skip squirrel stack tasklist thumbsdown " +
  "thumbsup typography unmute workflow versions"
).split(" ");
