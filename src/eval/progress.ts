/**
 * Eval progress on stderr: a cli-progress bar with ETA and the running mean reward on a terminal, and
 * plain lines (one per tenth of the run, and the last) when stderr is not a TTY (CI logs, pipes).
 */
import cliProgress from "cli-progress";

export interface Progress {
  /** `done` episodes (with rewards summing to `rewardSum`) were already in the log. */
  start(total: number, done: number, rewardSum: number): void;
  episode(reward: number): void;
  stop(): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Default: whether the stream is a TTY. */
  tty?: boolean;
  /** Milliseconds clock for the plain-line ETA. */
  now?: () => number;
}

const formatDuration = (ms: number) => {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
};

export function createProgress(options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? Boolean((stream as NodeJS.WriteStream).isTTY);
  const now = options.now ?? (() => performance.now());
  let total = 0;
  let done = 0;
  let sum = 0;
  let ranNow = 0;
  let startedAt = 0;
  let lastTenth = -1;
  const mean = () => (done === 0 ? "-" : (sum / done).toFixed(3));
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          stream: stream as NodeJS.WriteStream,
          format:
            "eval {bar} {value}/{total} episodes | {percentage}% | ETA {eta_formatted} | mean reward {mean}",
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const line = () => {
    const elapsed = now() - startedAt;
    const eta = ranNow === 0 ? "-" : formatDuration((elapsed / ranNow) * (total - done));
    const pct = total === 0 ? 100 : Math.floor((100 * done) / total);
    stream.write(`eval ${done}/${total} episodes (${pct}%) | ETA ${eta} | mean reward ${mean()}\n`);
  };
  return {
    start(t, d, rewardSum) {
      total = t;
      done = d;
      sum = rewardSum;
      startedAt = now();
      if (bar) bar.start(total, done, { mean: mean() });
      else {
        lastTenth = total === 0 ? 10 : Math.floor((10 * done) / total);
        line();
      }
    },
    episode(reward) {
      done++;
      ranNow++;
      sum += reward;
      if (bar) bar.update(done, { mean: mean() });
      else {
        const tenth = Math.floor((10 * done) / total);
        if (tenth > lastTenth || done === total) {
          lastTenth = tenth;
          line();
        }
      }
    },
    stop() {
      bar?.stop();
    },
  };
}
