import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile, its continuation lines joined. */
export interface DockerInstruction {
  keyword: string;
  args: string;
}

export interface DockerStage {
  /** The image it starts from, ARG defaults filled in. */
  from: string;
  name: string | undefined;
  instructions: DockerInstruction[];
}

/**
 * The stages of a Dockerfile, read as text (`docker build` cannot run on these machines): enough
 * of the syntax for Tessera's own file, which the image suite then holds to what it runs.
 */
export function readDockerfile(path: string): DockerStage[] {
  const lines = readFileSync(path, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const args = new Map<string, string>();
  const stages: DockerStage[] = [];
  for (const line of lines) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = instruction.args.split('=');
      args.set(name, value);
    } else if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(' ');
      const from = image.replace(/\$\{(\w+)\}/g, (_, arg: string) => args.get(arg) ?? '');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** The arguments of the stage's one `keyword` instruction (the last one, as Docker takes it). */
export function instructionOf(stage: DockerStage, keyword: string): string | undefined {
  return stage.instructions.filter((i) => i.keyword === keyword).at(-1)?.args;
}

/** The command of an exec-form instruction (`["node", "x.js"]`), as argv. */
export function execForm(args: string | undefined): string[] {
  const parsed: unknown = JSON.parse(args ?? 'null');
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec-form command: ${args}`);
  return parsed;
}

/** HEALTHCHECK's command: what follows its options' `CMD`. */
export function healthcheckCommand(stage: DockerStage): string[] {
  const args = instructionOf(stage, 'HEALTHCHECK') ?? '';
  return execForm(/\bCMD (\[.*\])$/.exec(args)?.[1]);
}

export interface DockerCopy {
  /** The stage it copies from (`--from=`), or undefined for the build context. */
  fromStage: string | undefined;
  sources: string[];
  destination: string;
}

/** The stage's COPY instructions, options other than --from dropped. */
export function copiesOf(stage: DockerStage): DockerCopy[] {
  return stage.instructions
    .filter((i) => i.keyword === 'COPY')
    .map((i) => {
      const words = i.args.split(' ');
      const fromStage = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      return { fromStage, sources: paths.slice(0, -1), destination: paths.at(-1)! };
    });
}
