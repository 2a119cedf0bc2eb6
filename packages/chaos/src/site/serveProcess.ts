import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const CLI_SOURCE = join(dirname(require.resolve("@racksmith/cli/package.json")), "src", "bin.ts");
const TSX = pathToFileURL(require.resolve("tsx")).href;
const TAIL_LINES = 60;

/** One line a service printed, parsed when it is JSON (pino). */
export interface ServeLine {
  readonly process: ServeProcess;
  readonly text: string;
  readonly json: Record<string, unknown> | undefined;
  /** When the runner read it (ms since the epoch). */
  readonly readAt: number;
}

export interface ServeStartOptions {
  /** `a#3`: replica a, its third process. */
  readonly name: string;
  readonly replica: string;
  readonly configFile: string;
  readonly cwd: string;
  /** Command-line flags after `serve --config FILE` (`--http`, `--grpc`, `--database-url`). */
  readonly flags: readonly string[];
  /** Where every line it prints goes. */
  readonly logFile: string;
  /** Called for every line, as it is read. */
  readonly onLine: (line: ServeLine) => void;
  /** A safety net: startup takes seconds, minutes on a busy machine. */
  readonly startupTimeoutMs: number;
}

/** Children still running, SIGKILLed if the runner exits (or is told to) without stopping them. */
const LIVE = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const child of LIVE) child.kill("SIGKILL");
  };
  process.once("exit", killAll);
  // A runner stopped from outside (CI's timeout, ^C) must not leave services holding ports and connections.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(code);
    });
  }
}

/**
 * `racksmith serve --config FILE` in its own process, from the CLI's TypeScript sources (no build), as an
 * operator runs it. Every line it prints goes to its log file and to `onLine`; the last few are kept for
 * error messages.
 */
export class ServeProcess {
  /** REST base URL, from its "racksmith listening" line. */
  url = "";
  /** The admin token file the service wrote, from the same line. */
  adminTokenFile: string | undefined;
  /** Its engine's claim owner id, from its "state engine started" line. */
  processorId: string | undefined;
  /** Its engine's resolved config, from the same line. */
  engineConfig: Record<string, unknown> | undefined;
  startedAt = Date.now();
  /** When the runner SIGKILLed it. */
  killedAt: number | undefined;
  /** When it was seen gone (exit and its output read to the end). */
  exitedAt: number | undefined;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  private stopRequested = false;
  private readonly tailLines: string[] = [];
  private readonly closed: Promise<void>;

  private constructor(
    readonly name: string,
    readonly replica: string,
    private readonly child: ChildProcess,
    private readonly log: WriteStream,
  ) {
    this.closed = new Promise((resolve) =>
      child.once("close", (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        this.exitedAt = Date.now();
        LIVE.delete(child);
        log.end(resolve);
      }),
    );
  }

  static start(options: ServeStartOptions): Promise<ServeProcess> {
    installExitHook();
    const child = spawn(
      process.execPath,
      [
        "--conditions=@racksmith/source",
        "--import",
        TSX,
        CLI_SOURCE,
        "serve",
        "--config",
        options.configFile,
        ...options.flags,
      ],
      {
        cwd: options.cwd,
        env: {
          ...process.env,
          RACKSMITH_PLUGIN_CONDITIONS: "@racksmith/source",
          // The config and flags say which database: nothing of the runner's environment.
          RACKSMITH_DATABASE_URL: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    LIVE.add(child);
    const log = createWriteStream(options.logFile, { flags: "a" });
    const serve = new ServeProcess(options.name, options.replica, child, log);
    return new Promise((resolve, reject) => {
      let listening = false;
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(
          new Error(
            `racksmith serve ${options.name} did not start in ${options.startupTimeoutMs} ms:\n${serve.tail()}`,
          ),
        );
      }, options.startupTimeoutMs);
      const read = (stream: NodeJS.ReadableStream | null) => {
        if (!stream) return;
        createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (text) => {
          const line = serve.take(text);
          options.onLine(line);
          if (!listening && serve.url) {
            listening = true;
            clearTimeout(timer);
            resolve(serve);
          }
        });
      };
      read(child.stdout);
      read(child.stderr);
      void serve.closed.then(() => {
        clearTimeout(timer);
        if (!listening) {
          reject(
            new Error(
              `racksmith serve ${options.name} exited (${serve.exitCode ?? serve.exitSignal}) before it listened:\n${serve.tail()}`,
            ),
          );
        }
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Still running (not exited, whatever the reason). */
  get alive(): boolean {
    return this.exitedAt === undefined;
  }

  /** Exited without the runner killing or stopping it: a crash. */
  get crashed(): boolean {
    return this.exitedAt !== undefined && this.killedAt === undefined && !this.stopRequested;
  }

  /** The last lines it printed. */
  tail(lines = TAIL_LINES): string {
    return this.tailLines.slice(-lines).join("\n");
  }

  /**
   * Why it exited, as it said: its last log line and the start of what followed it that is not a log line (an
   * uncaught error and its stack, which matters more than the stack's end).
   */
  exitReport(lines = 14): string {
    const tail = this.tailLines;
    let lastJson = -1;
    for (let index = tail.length - 1; index >= 0; index--) {
      if (tail[index]?.startsWith("{")) {
        lastJson = index;
        break;
      }
    }
    const after = tail.slice(lastJson + 1, lastJson + 1 + lines);
    return [...(lastJson >= 0 ? [`last log line: ${tail[lastJson]?.slice(0, 300)}`] : []), ...after].join(
      "\n",
    );
  }

  /** Ends it the hard way (power loss, OOM kill): nothing of its own cleanup runs. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.killedAt = Date.now();
    this.child.kill("SIGKILL");
    await this.closed;
  }

  /** SIGTERM (a graceful stop), SIGKILL if it is still there after `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    if (!this.alive) return;
    this.stopRequested = true;
    this.child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), graceMs);
    });
    if ((await Promise.race([this.closed, late])) === "late") {
      this.child.kill("SIGKILL");
      await this.closed;
    }
    clearTimeout(timer);
  }

  /** Resolves once it is gone and its output read. */
  exited(): Promise<void> {
    return this.closed;
  }

  private take(text: string): ServeLine {
    this.log.write(`${text}\n`);
    this.tailLines.push(text);
    if (this.tailLines.length > TAIL_LINES * 2) this.tailLines.splice(0, TAIL_LINES);
    let json: Record<string, unknown> | undefined;
    if (text.startsWith("{")) {
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
    }
    if (json?.msg === "racksmith listening" && typeof json.http === "string") {
      this.url = json.http;
      if (typeof json.adminTokenFile === "string") this.adminTokenFile = json.adminTokenFile;
    }
    if (json?.msg === "state engine started") {
      if (typeof json.processorId === "string") this.processorId = json.processorId;
      if (json.config && typeof json.config === "object") {
        this.engineConfig = json.config as Record<string, unknown>;
      }
    }
    return { process: this, text, json, readAt: Date.now() };
  }
}
