/** Runs the castnet command as a user does, in a child process, without blocking this process's servers. */
import { spawn } from "node:child_process";
import { CASTNET_MAIN, scratchDir, userEnv } from "../support/cli.js";

/** What `castnet start` prints on stderr off a terminal as it migrates a new data directory. */
export const NEW_DATA_DIR_MIGRATIONS = [
  "migrations: chain 0 of 4",
  "migrations: chain 1 of 4",
  "migrations: chain 2 of 4",
  "migrations: chain 3 of 4",
  "migrations: chain: 4 applied",
  "migrations: registry 0 of 1",
  "migrations: registry: 1 applied",
  "migrations: hub 0 of 4",
  "migrations: hub 1 of 4",
  "migrations: hub 2 of 4",
  "migrations: hub 3 of 4",
  "migrations: hub: 4 applied",
  "migrations: api 0 of 5",
  "migrations: api 1 of 5",
  "migrations: api 2 of 5",
  "migrations: api 3 of 5",
  "migrations: api 4 of 5",
  "migrations: api: 5 applied",
];

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The command in a folder of its own, with `env` over a fresh shell's (support/cli.ts). */
export function castnet(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return castnetIn(scratchDir(), env, ...args);
}

/** The command in `cwd`, with `env` over a fresh shell's environment (support/cli.ts). */
export function castnetIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return runCommand(process.execPath, [CASTNET_MAIN, ...args], {
    cwd,
    env: { ...userEnv(), CASTNET_LOG_LEVEL: "silent", ...env },
  });
}

/** The command in a folder of its own, its stdout readable while it runs (a stream it follows). */
export function castnetRunning(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { stdout(): string; exited: Promise<Run> } {
  let stdout = "";
  const exited = runCommand(
    process.execPath,
    [CASTNET_MAIN, ...args],
    { cwd: scratchDir(), env: { ...userEnv(), CASTNET_LOG_LEVEL: "silent", ...env } },
    (chunk) => (stdout += chunk),
  );
  return { stdout: () => stdout, exited };
}

/** PATH, a HOME of the test's own (npm reads its settings there), and `env`. */
export function cleanEnvironment(home: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...userEnv(home), ...env };
}

/** Any command, its output collected; it never blocks this process's servers. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
  /** Each piece of stdout as it comes. */
  onStdout?: (chunk: string) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(chunk.toString());
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** stderr without Node's experimental-feature warnings. */
export function errorLines(run: Run): string[] {
  return run.stderr
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.includes("ExperimentalWarning") && !l.includes("--trace-warnings"));
}

/** The one JSON document a --json command prints, after checking it succeeded. */
export function json<T = Record<string, unknown>>(run: Run): T {
  if (run.status !== 0) throw new Error(`castnet exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
