/** What `npm start` sets before Tessera's code runs: environment variables of the C library and V8 (`MALLOC_ARENA_MAX=2`) and Node.js flags. */
export interface StartWords {
  env: Record<string, string>;
  flags: string[];
}

const ENV_WORD = /^([A-Z_][A-Z0-9_]*)=(\S*)$/;

/**
 * Environment words (`NAME=value`) and Node.js flags (`--name[=value]`), in that order, as `npm start` and
 * `--compare-flags` give them; anything else is refused.
 */
export function startWords(words: readonly string[]): StartWords {
  const env: Record<string, string> = {};
  let i = 0;
  for (let match; i < words.length && (match = ENV_WORD.exec(words[i]!)); i++) env[match[1]!] = match[2]!;
  const flags = words.slice(i);
  const stray = flags.find((w) => !w.startsWith('--'));
  if (stray !== undefined)
    throw new Error(`not an environment word (NAME=value) before the Node.js flags, nor a flag (--name[=value]): ${stray}`);
  return { env, flags };
}

/**
 * The environment and Node.js flags of `npm start` (package.json: `[NAME=value ...] node [--flags] dist/src/main.js`):
 * the bench runs Tessera as users run it, so a setting in the start script is measured, and nothing else.
 */
export function startScriptWords(startScript: string): StartWords {
  const words = startScript.trim().split(/\s+/);
  const node = words.indexOf('node');
  const env = words.slice(0, Math.max(node, 0));
  const flags = words.slice(node + 1, -1);
  if (node < 0 || words.at(-1) !== 'dist/src/main.js' || !env.every((w) => ENV_WORD.test(w)) || !flags.every((w) => w.startsWith('--'))) {
    throw new Error(`package.json's start script is not "[NAME=value ...] node [--flags] dist/src/main.js": ${startScript}`);
  }
  return startWords([...env, ...flags]);
}
