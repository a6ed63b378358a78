import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ClientLink, ServerLink } from './links.js';
import { ServerStartError } from './links.js';

/** An SDK transport that may carry a session (Streamable HTTP) and announce a protocol version. */
type SessionTransport = Transport & { terminateSession?: () => Promise<void>; setProtocolVersion?: (version: string) => void };

/**
 * The client's side over one of the SDK's server transports — a Streamable HTTP session on the HTTP
 * front (or an in-memory pair). Messages arrive parsed; nothing is streamed.
 */
export class TransportClientLink implements ClientLink {
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  onclose?: () => void;
  /** Whether the session is over (its relay ended, or the transport closed): its id is then unknown. */
  closed = false;

  constructor(readonly transport: Transport) {
    transport.onmessage = (message) => this.onmessage?.(message);
    transport.onclose = () => {
      this.closed = true;
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  send(message: unknown, _raw?: Uint8Array, relatedRequestId?: string | number): void {
    const options = relatedRequestId === undefined ? undefined : { relatedRequestId };
    // A stream the client closed drops the message, as the SDK's own server would.
    this.transport.send(message as JSONRPCMessage, options).catch(() => undefined);
  }

  close(): Promise<void> {
    this.closed = true;
    return this.transport.close();
  }
}

/**
 * A message the Streamable HTTP server did not take, and why, as far as it can be said without
 * quoting the server: the HTTP status it answered with (`status`), or the network error's code.
 */
export class UpstreamSendError extends Error {
  override name = 'UpstreamSendError';
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

/** The server's side over one of the SDK's client transports: Streamable HTTP for `--server-url` (or an in-memory pair). */
export class TransportServerLink implements ServerLink {
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  onclose?: (why: string) => void;
  private closing = false;

  /** How messages name the server: `the MCP server at {host}` (its host and port: no user, path or query). */
  private readonly where: string;

  constructor(
    private readonly transport: SessionTransport,
    onError: (what: string) => void,
    private readonly host?: string,
  ) {
    this.where = host === undefined ? 'the MCP server' : `the MCP server at ${host}`;
    this.transport.onmessage = (message) => this.onmessage?.(message);
    // The SDK reports failures here; the message may quote the server, so only the status or the network error's code is kept.
    this.transport.onerror = (err) => {
      const status = httpStatusOf(err);
      onError(status !== undefined ? `HTTP ${status}` : networkCause(err));
    };
    this.transport.onclose = () => {
      if (!this.closing) this.onclose?.('closed the connection');
    };
  }

  async start(): Promise<void> {
    try {
      await this.transport.start();
    } catch (err) {
      throw new ServerStartError(`cannot reach the server: ${err instanceof Error ? err.name : 'error'}`);
    }
  }

  async send(message: unknown): Promise<void> {
    try {
      await this.transport.send(message as JSONRPCMessage);
    } catch (err) {
      const status = httpStatusOf(err);
      // The server lost the session it gave (restarted). MCP: the client must start a new one, so this link is gone.
      if (status !== undefined && this.transport.sessionId !== undefined && !this.closing && losesSession(status, err)) {
        queueMicrotask(() => this.onclose?.(`${this.host === undefined ? '' : `at ${this.host} `}lost the session (HTTP ${status})`));
      }
      throw new UpstreamSendError(status !== undefined ? `${this.where} answered HTTP ${status}` : `${this.where} could not be reached (${networkCause(err)})`, status);
    }
  }

  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.transport.terminateSession?.().catch(() => undefined);
    await this.transport.close();
  }
}

/**
 * Whether an answer to a request in a session says the server no longer has it: HTTP 404, as the
 * spec asks, or the 400 many servers still answer — built from the SDKs' earlier examples and
 * Python SDK releases before the fix ("Bad Request: No valid session ID provided", "Server not
 * initialized" from a restarted server): a 400 whose text speaks of the session or of not being
 * initialized. The text is read for this, never shown.
 */
function losesSession(status: number, err: unknown): boolean {
  if (status === 404) return true;
  return status === 400 && err instanceof Error && /session|not initiali[sz]ed/i.test(err.message);
}

/** The HTTP status of the SDK's `StreamableHTTPError` (its `code`), if the server answered with one. */
function httpStatusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return err instanceof Error && typeof code === 'number' && code >= 100 && code <= 599 ? code : undefined;
}

/** Why a request did not reach the server: the system error's code (`ECONNREFUSED`, `ENOTFOUND`), else the error's class. */
function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(cause.code)) return cause.code;
  const name = (err as Error | undefined)?.name;
  return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) ? name : 'error';
}
