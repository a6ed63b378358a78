import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import spawn from 'cross-spawn';
import { redactSecrets, redactionMarker } from '@argspan/core';
import { PRIVATE_KEY_BEGIN as BEGIN_LINE, PRIVATE_KEY_END as END_LINE } from '@argspan/core/internal';
import { LineReader } from './line-reader.js';
import type { LineSink, ServerLink } from './links.js';
import { ServerStartError } from './links.js';

const NEWLINE = Buffer.from('\n');
/** Longest server line held whole when it cannot be streamed. */
const MAX_SERVER_LINE_BYTES = 256 * 1024 * 1024;
/** Longest line of the server's stderr passed on (the rest of the line is cut). */
const MAX_STDERR_LINE_BYTES = 16 * 1024;
/** How long a server gets to exit after its stdin closes, then after SIGTERM. */
const GRACE_MS = 2000;

export interface ChildServerOptions {
  command: string;
  args: readonly string[];
  /** Where the server's stderr goes, line by line, with credential shapes redacted. */
  stderr: NodeJS.WritableStream;
  /** Lines over this many bytes are streamed to the client instead of held. */
  streamThreshold: number;
  /** Most text kept of a streamed line for provenance context. */
  maxContextBytes: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * The real MCP server as a child process over stdio. It inherits the proxy's environment (the
 * client configured it for the server). On POSIX it leads its own process group, so a wrapper such
 * as `npx` and the server it starts are stopped together.
 */
export class ChildServerLink implements ServerLink {
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  onstreamed?: ServerLink['onstreamed'];
  onclose?: (why: string) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly reader: LineReader;
  private exited: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly options: ChildServerOptions) {
    this.reader = new LineReader(MAX_SERVER_LINE_BYTES, (line) => this.line(line), () => undefined);
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The command's file name, for messages (its arguments may hold tokens and are never printed). */
  get name(): string {
    return basename(this.options.command);
  }

  start(): Promise<void> {
    const o = this.options;
    const child = spawn(o.command, [...o.args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: o.env ?? process.env,
      ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
      detached: process.platform !== 'win32',
      windowsHide: true,
    }) as ChildProcessWithoutNullStreams;
    this.child = child;
    return new Promise<void>((resolve, reject) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(new ServerStartError(`cannot start ${this.name}: ${err.code ?? 'spawn failed'}`));
      });
      child.once('spawn', () => {
        // If the proxy ends abruptly (stdout closed under it, an uncaught error), its server goes too.
        const onExit = () => this.signal('SIGTERM');
        process.once('exit', onExit);
        this.exited = new Promise<void>((done) => {
          child.once('close', (code, signal) => {
            process.off('exit', onExit);
            if (this.reader.midStream) this.reader.abandon();
            this.onclose?.(signal ? `was stopped by ${signal}` : `exited with code ${code}`);
            done();
          });
        });
        child.stdout.on('data', (chunk: Buffer) => this.reader.push(chunk));
        child.stdin.on('error', () => undefined); // EPIPE when the server is gone: 'close' reports it
        passStderr(child.stderr, o.stderr);
        resolve();
      });
    });
  }

  streamTo(sink: LineSink, canStream: () => boolean): void {
    this.reader.setStreaming({
      sink,
      canStream,
      threshold: this.options.streamThreshold,
      maxTextBytes: this.options.maxContextBytes,
      onStreamed: (envelope) => this.onstreamed?.(envelope),
      pause: () => this.child?.stdout.pause(),
      resume: () => this.child?.stdout.resume(),
    });
  }

  private line(line: Uint8Array): void {
    let message: unknown;
    try {
      message = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'));
    } catch {
      message = undefined;
    }
    this.onmessage?.(message, line);
  }

  send(message: unknown, raw?: Uint8Array): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable || this.stopping) return Promise.reject(new Error('the MCP server is not running'));
    const ok = stdin.write(Buffer.concat([raw ?? Buffer.from(JSON.stringify(message)), NEWLINE]));
    return ok ? Promise.resolve() : new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Stop the server: close its stdin, then SIGTERM, then SIGKILL (its whole process group). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || !this.exited) return;
    this.stopping = true;
    child.stdin.end();
    if (await settlesWithin(this.exited, GRACE_MS)) return;
    this.signal('SIGTERM');
    if (await settlesWithin(this.exited, GRACE_MS)) return;
    this.signal('SIGKILL');
    await this.exited;
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') process.kill(pid, signal);
      else process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }
}

function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    void p.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** A private key's first line, and its last: the lines between are key material however they look alone. */
const PRIVATE_KEY_BEGIN = new RegExp(BEGIN_LINE);
const PRIVATE_KEY_END = new RegExp(END_LINE);

/**
 * The server's stderr, line by line, credential shapes redacted and long lines cut. A private key
 * logged over several lines is one marker: from its BEGIN line to its END line (or the end of the
 * stream) nothing of it is passed on.
 */
function passStderr(from: NodeJS.ReadableStream, to: NodeJS.WritableStream): void {
  let inKey = false;
  const pass = (text: string): void => {
    if (inKey) {
      const end = PRIVATE_KEY_END.exec(text);
      if (end === null) return;
      inKey = false;
      const after = text.slice(end.index + end[0].length);
      if (after.trim() !== '') to.write(redactSecrets(after).text + '\n');
      return;
    }
    const begin = PRIVATE_KEY_BEGIN.exec(text);
    if (begin !== null && !PRIVATE_KEY_END.test(text.slice(begin.index))) {
      inKey = true;
      to.write(redactSecrets(text.slice(0, begin.index)).text + redactionMarker('private-key') + '\n');
      return;
    }
    to.write(redactSecrets(text).text + '\n');
  };
  const reader = new LineReader(
    MAX_STDERR_LINE_BYTES,
    (line) => pass(Buffer.from(line).toString('utf8')),
    () => to.write('[argspan: a line of the server\'s stderr was too long and is left out]\n'),
  );
  from.on('data', (chunk: Buffer) => reader.push(chunk));
  from.on('end', () => reader.push(NEWLINE));
}

/**
 * Whether `command` names an executable file as spawning it would find it: a path (relative to the
 * working directory) when it has a separator, else on `PATH` (with `PATHEXT` on Windows). Lets the
 * HTTP front, which starts a server per session, refuse a command that can never start at once.
 */
export function findsExecutable(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const windows = process.platform === 'win32';
  const hasSeparator = command.includes('/') || (windows && command.includes('\\'));
  const candidates = hasSeparator ? [command] : (env.PATH ?? '').split(delimiter).filter((d) => d !== '').map((d) => join(d, command));
  const extensions = windows ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  return candidates.some((c) =>
    extensions.some((e) => {
      try {
        accessSync(c + e, constants.X_OK);
        return statSync(c + e).isFile();
      } catch {
        return false;
      }
    }),
  );
}
