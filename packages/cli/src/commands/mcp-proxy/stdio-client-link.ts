import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from './line-reader.js';
import type { ClientLink, LineSink } from './links.js';

const NEWLINE = Buffer.from('\n');

/** Longest client message read (a `write_file` of a large file is one line). */
export const MAX_CLIENT_LINE_BYTES = 256 * 1024 * 1024;

/**
 * The client over stdio: newline-delimited JSON-RPC on the proxy's stdin and stdout (MCP's stdio
 * transport). Nothing but protocol lines ever reaches stdout; a line the server streams in pieces is
 * never interleaved with another (the proxy's own answers wait for its end).
 */
export class StdioClientLink implements ClientLink, LineSink {
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  onclose?: () => void;
  private readonly reader: LineReader;
  private midLine = false;
  private deferred: Uint8Array[] = [];
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {
    this.reader = new LineReader(
      MAX_CLIENT_LINE_BYTES,
      (line) => this.line(line),
      () => this.unreadable(`a message longer than ${MAX_CLIENT_LINE_BYTES} bytes`),
    );
  }

  get sink(): LineSink {
    return this;
  }

  start(): void {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.once('close', this.onEnd);
    this.input.on('error', this.onEnd);
  }

  private readonly onData = (chunk: Buffer | string) => this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

  private readonly onEnd = () => {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  };

  private line(line: Uint8Array): void {
    let message: unknown;
    try {
      message = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'));
    } catch {
      this.unreadable('a line that is not JSON');
      return;
    }
    this.onmessage?.(message, line);
  }

  /** JSON-RPC's answer to what cannot be read: a parse error with no id (the line is not passed on). */
  private unreadable(why: string): void {
    this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: `argspan mcp-proxy: ${why}` } });
  }

  send(message: unknown, raw?: Uint8Array): void {
    this.writeLine(raw ?? Buffer.from(JSON.stringify(message)));
  }

  writeLine(line: Uint8Array): void {
    if (this.midLine) {
      this.deferred.push(Buffer.concat([line, NEWLINE]));
      return;
    }
    // One write per message: each write to a pipe can wake the reader, and a wake-up costs more than the copy.
    this.output.write(Buffer.concat([line, NEWLINE]));
  }

  beginLine(): void {
    this.midLine = true;
  }

  writePiece(piece: Uint8Array): boolean {
    return this.output.write(piece);
  }

  endLine(): void {
    this.midLine = false;
    this.output.write(NEWLINE);
    const deferred = this.deferred;
    this.deferred = [];
    for (const line of deferred) this.output.write(line);
  }

  onDrain(callback: () => void): void {
    this.output.once('drain', callback);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onEnd);
    // Stop reading so the process can exit once everything else is done.
    (this.input as NodeJS.ReadableStream & { destroy?: () => void }).pause();
    (this.input as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
  }
}
