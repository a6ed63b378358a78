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

  constructor(readonly transport: Transport) {
    transport.onmessage = (message) => this.onmessage?.(message);
    transport.onclose = () => this.onclose?.();
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
    return this.transport.close();
  }
}

/** The server's side over one of the SDK's client transports: Streamable HTTP for `--server-url` (or an in-memory pair). */
export class TransportServerLink implements ServerLink {
  onmessage?: (message: unknown, raw?: Uint8Array) => void;
  onclose?: (why: string) => void;
  private closing = false;

  constructor(
    private readonly transport: SessionTransport,
    onError: (what: string) => void,
  ) {
    this.transport.onmessage = (message) => this.onmessage?.(message);
    // The SDK reports failures of its background stream here; the message may quote the server, so only the kind is kept.
    this.transport.onerror = (err) => onError(err.name);
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

  send(message: unknown): Promise<void> {
    return this.transport.send(message as JSONRPCMessage);
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
