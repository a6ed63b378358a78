import type { StreamedEnvelope } from './json-envelope.js';

/**
 * The two sides of the relay. A link carries JSON-RPC messages, as parsed JSON (never validated
 * beyond that: a relay passes on what it does not read) plus, over stdio, the exact bytes of each line
 * so what is passed on is what was received.
 */

/** Where the client's messages come from and its answers go (stdin/stdout, or one Streamable HTTP session). */
export interface ClientLink {
  /** One message from the client: parsed JSON, and its bytes when the link has them. */
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  /** The client went away (stdin ended, the HTTP session was deleted or closed). */
  onclose?: () => void;
  /**
   * Send a message to the client. `raw` is the server's own bytes for it (sent as they are);
   * `relatedRequestId` routes a notification to the HTTP stream of the request it belongs to.
   */
  send(message: unknown, raw?: Uint8Array, relatedRequestId?: string | number): void;
  /** The stdio link's output, to which a server over stdio streams large lines directly. */
  readonly sink?: LineSink;
  /** The Streamable HTTP session id, on the HTTP front. */
  readonly sessionId?: string | undefined;
  close(): Promise<void>;
}

/** Where the client's messages go and the server's come from (a child process, or a Streamable HTTP server). */
export interface ServerLink {
  /** One whole message from the server: parsed JSON (or `undefined` when the line was not JSON), and its bytes when the link has them. */
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  /** A message too large to hold that the link already streamed to the client's sink, as far as the relay needs it. */
  onstreamed?: (envelope: StreamedEnvelope) => void;
  /** The server is gone; `why` says how (`exited with code 1`), never what it printed. */
  onclose?: (why: string) => void;
  /** Start the server (spawn it, or prepare the connection). Rejects with {@link ServerStartError}. */
  start(): Promise<void>;
  /** Send a message to the server: `raw` (the client's bytes) when given, else the message serialised. */
  send(message: unknown, raw?: Uint8Array): Promise<void>;
  /**
   * Stream lines over `threshold` bytes straight to `sink` while `canStream()` says so (the relay
   * says no while it waits for an answer of its own, which must not reach the client).
   */
  streamTo?(sink: LineSink, canStream: () => boolean): void;
  /** After `initialize`: the protocol version the HTTP transport must announce. */
  setProtocolVersion?(version: string): void;
  close(): Promise<void>;
}

/** The stdio client link's output: whole lines, or one line written in pieces as they arrive. */
export interface LineSink {
  /** Write one whole line (the newline is added). */
  writeLine(line: Uint8Array): void;
  /** Start a line that arrives in pieces; other lines wait until {@link endLine}. */
  beginLine(): void;
  /** The next piece of the current line; false when the output is congested (wait for {@link onDrain}). */
  writePiece(piece: Uint8Array): boolean;
  endLine(): void;
  onDrain(callback: () => void): void;
}

/** The server could not be started (command not found, not executable, bad URL). */
export class ServerStartError extends Error {
  override name = 'ServerStartError';
}
