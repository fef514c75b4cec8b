/**
 * A castnet command line to print for the user to run next, in the form that works where they ran
 * this one. Through an npm script that is the castnet command itself (the README's
 * `npm run castnet -- …`, where `castnet` is not on the PATH) it is `npm run <script> -- …`; through
 * npx, `npx castnet …`; otherwise `castnet …`. npm says how it ran a command in the environment of
 * what it runs: npm_command, npm_lifecycle_event (the script's name), npm_lifecycle_script (its command).
 */
export function castnetCommand(args: string): string {
  const { npm_command: command, npm_lifecycle_event: script, npm_lifecycle_script: runs } = process.env;
  // A script that does more than run castnet (`castnet seed demo && …`) would not take the arguments.
  const runsCastnet = runs !== undefined && /(^|[\s/])(castnet|dist\/cli\/main\.js)$/.test(runs);
  if ((command === "run" || command === "run-script") && script && runsCastnet)
    return `npm run ${script} -- ${args}`;
  if (command === "exec" && runsCastnet) return `npx castnet ${args}`;
  return `castnet ${args}`;
}
