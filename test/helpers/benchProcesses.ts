import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { BOOKS_BIN } from './cli.js';

/** CPU seconds (user + system) a process has used; NaN when it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A process and its children (`books serve --workers N`: the primary and its workers). */
export function processTree(pid: number): number[] {
  try {
    const children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

/** Every PostgreSQL server process on the machine (its postmaster and backends). */
export function postgresProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

/** CPU seconds used so far by `books serve` (its process tree) and by PostgreSQL. */
export function cpuSoFar(servePid: number): { serve: number; postgres: number } {
  const sum = (pids: number[]) =>
    pids
      .map(cpuSecondsOf)
      .filter((s) => !Number.isNaN(s))
      .reduce((a, b) => a + b, 0);
  return { serve: sum(processTree(servePid)), postgres: sum(postgresProcesses()) };
}

/** A process's resident memory (VmRSS) or its own anonymous memory (RssAnon), in MB. */
export function rssMb(pid: number, field: 'VmRSS' | 'RssAnon' | 'VmHWM' = 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
};

/**
 * One command of the built binary, timed, with its peak resident memory (GNU time's %M, when
 * /usr/bin/time is there).
 */
export function timed(
  args: string[],
  env: NodeJS.ProcessEnv,
  /** The exits that are an answer (a review with an entity not ready exits 1). */
  answers: readonly number[] = [0],
) {
  const gnuTime = existsSync('/usr/bin/time');
  const started = performance.now();
  const result = spawnSync(
    gnuTime ? '/usr/bin/time' : process.execPath,
    gnuTime ? ['-f', 'peak-rss-kb %M', process.execPath, BOOKS_BIN, ...args] : [BOOKS_BIN, ...args],
    { env, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.status === null || !answers.includes(result.status)) {
    throw new Error(`books ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
  }
  const rss = /peak-rss-kb (\d+)/.exec(result.stderr);
  return {
    seconds,
    peakRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
    stdout: result.stdout,
    exit: result.status,
  };
}

/** A bench's figures: each printed as it comes, and all together again at the end. */
export function benchFigures() {
  const lines: string[] = [];
  return {
    say(line: string) {
      lines.push(line);
      console.log(line);
    },
    printAll() {
      console.log(`\n${lines.join('\n')}`);
    },
  };
}
