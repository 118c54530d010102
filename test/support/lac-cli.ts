import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** The real LAC command-line client (npm liveapicreator-cli), run as its users run it. */
const CLI = join(process.cwd(), 'node_modules', 'liveapicreator-cli', 'liveapicreator.js');

export interface LacRun {
  /** The CLI exits 0 on errors it reports itself ("Error: …"); 1 when it crashes. */
  code: number | null;
  /** Standard output without its colours. */
  stdout: string;
  stderr: string;
}

/**
 * One CLI user: a home directory of its own (the CLI keeps its login in ~/.liveapicreator),
 * removed by `cleanup`.
 */
export class LacCli {
  readonly home = mkdtempSync(join(tmpdir(), 'tessera-lac-home-'));

  /** `lac <args…>`; a CLI still running after `limitMs` is killed and the run fails. */
  run(args: string[], limitMs = 30_000): Promise<LacRun> {
    const path = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
    // --no-deprecation: on Node 22 the 2015-era CLI's util._extend prints a DeprecationWarning on stderr, which the
    // suites read as the CLI's own output.
    const child = spawn(process.execPath, ['--no-deprecation', CLI, ...args], {
      cwd: this.home,
      env: { HOME: this.home, PATH: path },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve, reject) => {
      const limit = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`lac ${args.join(' ')} did not finish within ${limitMs} ms:\n${stdout}\n${stderr}`));
      }, limitMs);
      child.on('exit', (code) => {
        clearTimeout(limit);
        resolve({ code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) });
      });
    });
  }

  /** `lac <args…> -m json`, its output parsed; fails with the CLI's output when that is not JSON. */
  async json(args: string[]): Promise<unknown> {
    const { stdout, stderr } = await this.run([...args, '-m', 'json']);
    try {
      return JSON.parse(stdout) as unknown;
    } catch {
      throw new Error(`lac ${args.join(' ')} -m json printed no JSON:\n${stdout}\n${stderr}`);
    }
  }

  /** Logs in as a demo user; fails with the CLI's output unless it says it succeeded. */
  async login(url: string, username = 'demo', password = 'Password1'): Promise<LacRun> {
    const run = await this.run(['login', url, '-u', username, '-p', password]);
    if (!run.stdout.includes('Login successful')) throw new Error(`lac login failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  }

  cleanup(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** The rows of an easy-table the CLI printed (`describe …`): each line after the dashes, split on runs of 2+ spaces. */
export function tableRows(stdout: string): string[][] {
  const lines = stdout.split('\n');
  const rule = lines.findIndex((line) => /^-+(\s+-+)*\s*$/.test(line));
  if (rule < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(rule + 1)) {
    if (line.trim() === '' || line.startsWith('# ')) break;
    rows.push(line.trimEnd().split(/\s{2,}/));
  }
  return rows;
}
