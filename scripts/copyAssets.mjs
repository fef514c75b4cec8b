// The build's one step tsc does not do: the pages' script, style sheet and icon, copied beside the
// compiled modules that serve them (src/clientapi/pages/assets → dist/clientapi/pages/assets).
import { cpSync } from "node:fs";

cpSync("src/clientapi/pages/assets", "dist/clientapi/pages/assets", { recursive: true });
