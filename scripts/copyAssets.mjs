// The build's one step tsc does not do: the pages' script, style sheet and icon, copied beside the
// compiled modules that serve them (src/explorer/assets → dist/explorer/assets).
import { cpSync } from "node:fs";

cpSync("src/explorer/assets", "dist/explorer/assets", { recursive: true });
