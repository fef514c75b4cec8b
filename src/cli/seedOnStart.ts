/** `castnet start --seed demo`: the demo world, seeded once the stack listens (StartReports.afterListen). */
import type { StackConfig } from "../stack/options.js";
import type { StartReports } from "../stack/stack.js";
import { contextOf } from "./context.js";
import type { Progress } from "./progress.js";
import { seedDemo } from "./seed/index.js";

/**
 * What `startStack` runs after listening for `config`: the demo world through the parts' HTTP APIs,
 * as `castnet seed demo` makes it against a running stack; nothing unless `--seed demo` was given.
 * The seed shows its own progress on stderr when not given a `progress`.
 */
export function seedOnStart(config: StackConfig, progress?: Progress): StartReports["afterListen"] {
  if (config.seed !== "demo") return undefined;
  return async (urls, signal) => {
    await seedDemo(
      contextOf({
        hubUrl: urls.hub,
        registryUrl: urls.registry,
        apiUrl: urls.api,
        chainUrl: urls.chain,
        adminToken: config.adminToken,
        network: config.network,
        dataDir: config.dataDir,
        devBalance: config.devBalance,
      }),
      progress,
      signal,
    );
  };
}
