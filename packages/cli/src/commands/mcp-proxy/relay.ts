import type { Attributes } from '@opentelemetry/api';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { McpAttributes } from '@argspan/conventions';
import { redactName } from '@argspan/core';
import { redactedPrefix } from '@argspan/core/internal';
import type { McpCallToolParams, McpCallToolResult } from '@argspan/adapters/mcp';
import type { StreamedEnvelope } from './json-envelope.js';
import type { ClientLink, ServerLink } from './links.js';
import { DEFAULT_ASK_TIMEOUT_SECONDS } from './options.js';
import { ToolGate, type AskThroughClient, type ToolGateOptions, type UpstreamRequests } from './tool-gate.js';
import { UpstreamSendError } from './transport-links.js';

type RequestId = string | number;

/** How a relay ended. */
export type RelayEnd = { by: 'client' } | { by: 'server'; why: string };

/** A request sent to the server whose answer has not come yet. */
interface Pending {
  method: string;
  /** The client's request (its answer goes to the client), or the proxy's own (kept from the client). */
  own: boolean;
  /** Set when the gate or the proxy waits for the answer. */
  resolve?: (result: unknown) => void;
  reject?: (err: Error) => void;
  progressToken?: string | number;
}

/** The server answered a request with a JSON-RPC error. The message is the server's: never logged or recorded. */
export class McpServerError extends Error {
  override name = 'McpServerError';
  constructor(readonly error: unknown) {
    super('the MCP server answered with an error');
  }
}

/** The client cancelled a request the server was working on (`notifications/cancelled`). */
export class McpRequestCancelledError extends Error {
  override name = 'McpRequestCancelledError';
  constructor() {
    super('the client cancelled the request');
  }
}

/** The server went away before answering. */
export class McpServerGoneError extends Error {
  override name = 'McpServerGoneError';
}

/**
 * How long the proxy waits for the server to answer a request of its own (the `tools/list` it
 * sends before a first call): past it the request is cancelled and the call is gated without the
 * schemas, so a server that never lists cannot hold every later message of the client.
 */
export const OWN_REQUEST_TIMEOUT_MS = 30_000;

/** The server did not answer a request of the proxy's own in time. */
export class McpOwnRequestTimeoutError extends Error {
  override name = 'McpOwnRequestTimeoutError';
  constructor() {
    super('the MCP server did not answer the proxy in time');
  }
}

/** Prefix of the ids of the proxy's own requests to the server (never the client's). */
const OWN_ID_PREFIX = 'argspan-mcp-proxy:';
/** Prefix of the ids of the proxy's own questions to the client (`elicitation/create`). */
const QUESTION_ID_PREFIX = 'argspan-mcp-proxy-question:';

/** Options of an {@link McpRelay}. */
export interface RelayOptions {
  /** How long a question put to the user through the client waits for an answer (then the call stays held). */
  askTimeoutMs: number;
  /** How long a request of the proxy's own waits for the server. @default {@link OWN_REQUEST_TIMEOUT_MS} */
  ownRequestTimeoutMs?: number;
}
/** Longest client or server name or version written on a span. */
const MAX_INFO_CHARS = 256;

/**
 * One client connected to one server. Every message is passed on unchanged — `initialize`,
 * listings, resources, prompts, completions, notifications, progress, cancellation, the server's
 * own requests (sampling, elicitation, roots) and their answers — except `tools/call`, which goes
 * through the gate first ({@link ToolGate}): a call the policy refuses or holds is answered by the
 * proxy with an MCP tool error and never reaches the server.
 *
 * The client's messages are handled in the order they arrive: a `tools/call` is classified and
 * either sent or answered before the next message is passed on, so a cancellation or any later
 * message never overtakes the call it follows. The client's answers to the server's own requests
 * follow no call and are passed on at once. The server's messages are passed on as they arrive.
 */
export class McpRelay implements UpstreamRequests {
  /** Resolves once, when either side is gone; the caller then closes both. */
  readonly ended: Promise<RelayEnd>;
  private endRelay!: (end: RelayEnd) => void;
  private done = false;
  private readonly gate: ToolGate;
  private readonly pending = new Map<string, Pending>();
  private ownRequests = 0;
  private ownSeq = 0;
  private queue: Promise<void> = Promise.resolve();
  /** The `tools/call`s the gate is deciding, by id: each entry marks its call sent to the server. */
  private readonly deciding = new Map<string, () => void>();
  /** The same calls, by id: each entry lets the client's later messages go on once the call is cancelled. */
  private readonly releases = new Map<string, () => void>();
  /** What the span attributes say about the client and the server, once `initialize` told. */
  private readonly peer: Attributes = {};
  /** Whether the client said at `initialize` that it can put a form to its user (MCP elicitation). */
  private clientAsks = false;
  /** The proxy's questions to the client waiting for an answer, by id: the client's request asking, and how to settle with the client's result (undefined: none). */
  private readonly questions = new Map<string, { relayId: RequestId | undefined; settle: (result: unknown) => void }>();
  private questionSeq = 0;
  /**
   * The client's `tools/call`s from arrival until sent or answered, by id: true once the client
   * cancelled one. A call waiting behind another's question may be cancelled before its turn; it
   * is then not asked about (the user would answer for a call nobody waits for), and no cancelled
   * call gets an answer of the proxy's.
   */
  private readonly openCalls = new Map<string, boolean>();

  constructor(
    private readonly client: ClientLink,
    private readonly server: ServerLink,
    gateOptions: ToolGateOptions,
    private readonly log: (line: string) => void,
    private readonly options: RelayOptions = { askTimeoutMs: DEFAULT_ASK_TIMEOUT_SECONDS * 1000 },
  ) {
    this.ended = new Promise((resolve) => (this.endRelay = resolve));
    this.gate = new ToolGate(this, gateOptions, this.askThroughClient);
    client.onmessage = (message) => {
      // An answer to the proxy's own question is taken at once: the tools/call waiting for it holds the queue.
      if (this.answered(message)) return;
      if (isObject(message) && message.method === 'tools/call' && isRequestId(message.id)) this.openCalls.set(key(message.id), false);
      this.closeQuestionsOfCancelled(message);
      // An answer to the server's own request (elicitation, sampling, roots, ping) follows no call and
      // goes at once: the server waiting for it must not wait for a question of the proxy's to close.
      const failed = (err: unknown) => this.log(`argspan mcp-proxy: could not relay a client message (${errorName(err)})`);
      if (isResponse(message)) this.fromClient(message).catch(failed);
      else this.queue = this.queue.then(() => this.fromClient(message)).catch(failed);
    };
    client.onclose = () => this.end({ by: 'client' });
    server.onmessage = (message, raw) => this.fromServer(message, raw);
    server.onstreamed = (envelope) => this.streamedFromServer(envelope);
    server.onclose = (why) => this.serverGone(why);
    if (client.sink && server.streamTo) server.streamTo(client.sink, () => this.ownRequests === 0);
  }

  // ——— client → server ———

  private async fromClient(message: unknown): Promise<void> {
    if (Array.isArray(message)) {
      // A batch could carry a tools/call past the gate; MCP no longer uses batches (2025-06-18).
      this.reply(null, undefined, { code: ErrorCode.InvalidRequest, message: 'argspan mcp-proxy does not relay JSON-RPC batches; send one message per line' });
      return;
    }
    if (!isObject(message)) {
      this.reply(null, undefined, { code: ErrorCode.InvalidRequest, message: 'argspan mcp-proxy: a JSON-RPC message must be an object' });
      return;
    }
    const method = typeof message.method === 'string' ? message.method : undefined;
    const id = isRequestId(message.id) ? message.id : undefined;
    if (method === 'tools/call') {
      if (id === undefined) {
        this.log('argspan mcp-proxy: dropped a tools/call without an id (a notification cannot be gated or answered)');
        return;
      }
      return await this.toolCall(id, message.params);
    }
    if (this.done) {
      if (method !== undefined && id !== undefined) this.reply(id, undefined, { code: ErrorCode.ConnectionClosed, message: 'argspan mcp-proxy: the MCP server is not running' });
      return;
    }
    if (method === 'initialize' && id !== undefined) this.noteClient(message.params);
    if (method === 'notifications/cancelled') this.cancelled(message.params);
    if (method === 'tools/list' && id !== undefined) {
      // Through the adapter, which learns each tool's schema from the answer (passed on as it is).
      void this.gate.listTools(id, message.params).catch(() => undefined);
      return;
    }
    if (method !== undefined && id !== undefined) this.track(id, { method, own: false, ...progressOf(message.params) });
    // Sent in order, not awaited: over HTTP a send lasts until the server answers, and later messages
    // (a cancellation among them) must not wait for that. Sent as read, never as the client's bytes:
    // a line with a repeated key (`"method":"tools/call",…,"method":"ping"`) is what the proxy read,
    // a ping, not a tools/call to a server whose parser keeps the first.
    void this.toServer(message, id);
  }

  private async toolCall(id: RequestId, params: unknown): Promise<void> {
    if (this.done) {
      this.openCalls.delete(key(id));
      this.reply(id, undefined, { code: ErrorCode.ConnectionClosed, message: 'argspan mcp-proxy: the MCP server is not running; the call was not sent' });
      return;
    }
    if (!isCallToolParams(params)) {
      this.openCalls.delete(key(id));
      this.reply(id, undefined, { code: ErrorCode.InvalidParams, message: 'argspan mcp-proxy: tools/call params need a string "name" and an object of "arguments"; the call was not sent' });
      return;
    }
    let sent = false;
    const decided = new Promise<void>((resolve) =>
      this.deciding.set(key(id), () => {
        sent = true;
        resolve();
      }),
    );
    // A call the client cancelled gets no answer of the proxy's (MCP: the receiver should not answer it).
    const cancelled = () => this.openCalls.get(key(id)) === true;
    const answered = this.gate.callTool(id, params, this.callAttributes(id)).then(
      (result: McpCallToolResult) => {
        // A result the server sent was passed on already; one the gate made (refused, held) is the proxy's to send.
        if (!sent && !cancelled()) this.reply(id, result);
      },
      (err: unknown) => {
        if (sent) return; // the server's answer (or the proxy's, if it went away) reached the client already
        if (err instanceof McpServerGoneError) {
          if (!cancelled()) this.reply(id, undefined, { code: ErrorCode.ConnectionClosed, message: 'argspan mcp-proxy: the MCP server is not running; the call was not sent' });
        } else {
          this.log(`argspan mcp-proxy: a tools/call could not be gated (${errorName(err)}); it was not sent`);
          if (!cancelled()) this.reply(id, undefined, { code: ErrorCode.InternalError, message: 'argspan mcp-proxy could not gate this call; it was not sent to the server' });
        }
      },
    );
    // Marked cancelled until the gate is done with it, so that it is not sent after all (see `request`).
    void answered.finally(() => this.openCalls.delete(key(id)));
    const released = new Promise<void>((resolve) => this.releases.set(key(id), resolve));
    // The next client message waits until this call is sent or answered, or the client cancels it.
    await Promise.race([decided, answered, released]);
    this.deciding.delete(key(id));
    this.releases.delete(key(id));
  }

  /** {@link UpstreamRequests}: how the gate (through the MCP adapter) reaches the server. */
  request(clientId: RequestId | undefined, method: string, params: unknown): Promise<unknown> {
    if (this.done) return Promise.reject(new McpServerGoneError('the MCP server is not running'));
    const own = clientId === undefined;
    // A call the client cancelled while it was being gated is not sent.
    if (!own && this.openCalls.get(key(clientId)) === true) return Promise.reject(new McpRequestCancelledError());
    const id = own ? `${OWN_ID_PREFIX}${++this.ownSeq}` : clientId;
    const answer = new Promise<unknown>((resolve, reject) => this.track(id, { method, own, resolve, reject, ...progressOf(params) }));
    if (own) {
      this.ownRequests += 1;
      const timer = setTimeout(() => {
        if (!this.pending.has(key(id))) return;
        this.settle(id, undefined, new McpOwnRequestTimeoutError());
        this.server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'argspan mcp-proxy: no answer in time' } }).catch(() => undefined);
      }, this.options.ownRequestTimeoutMs ?? OWN_REQUEST_TIMEOUT_MS);
      timer.unref();
      void answer.catch(() => undefined).finally(() => clearTimeout(timer));
    } else this.deciding.get(key(id))?.();
    // Built anew, not the client's bytes: what is sent is what the gate classified (its snapshot of the arguments).
    this.toServer({ jsonrpc: '2.0', id, method, params }, id).catch(() => undefined);
    return answer;
  }

  private async toServer(message: unknown, id: RequestId | undefined): Promise<void> {
    try {
      await this.server.send(message);
    } catch (err) {
      const p = id === undefined ? undefined : this.pending.get(key(id));
      if (id === undefined || !p) return;
      if (err instanceof UpstreamSendError && err.status !== undefined) {
        // The server was reached and refused the request: a server error, not a server gone.
        this.settle(id, undefined, new McpServerError(undefined));
        if (!p.own) this.reply(id, undefined, { code: ErrorCode.InternalError, message: `argspan mcp-proxy: ${err.message} to ${p.method}` });
        return;
      }
      const why = err instanceof UpstreamSendError ? err.message : `the MCP server could not be reached (${errorName(err)})`;
      this.settle(id, undefined, new McpServerGoneError(why));
      if (!p.own) this.reply(id, undefined, { code: ErrorCode.ConnectionClosed, message: `argspan mcp-proxy: ${why}; ${p.method} was not delivered` });
    }
  }

  private cancelled(params: unknown): void {
    const requestId = isObject(params) ? params.requestId : undefined;
    if (!isRequestId(requestId)) return;
    const p = this.pending.get(key(requestId));
    if (!p || p.own) return;
    // The server does not answer a cancelled request: whoever waits for it stops waiting now.
    this.pending.delete(key(requestId));
    p.reject?.(new McpRequestCancelledError());
  }

  // ——— server → client ———

  private fromServer(message: unknown, raw: Uint8Array | undefined): void {
    if (isObject(message) && message.method === undefined && isRequestId(message.id)) {
      const p = this.pending.get(key(message.id));
      if (p) {
        this.settle(message.id, message.result, 'error' in message ? new McpServerError(message.error) : undefined);
        if (p.method === 'initialize') this.noteServer(message.result);
        if (p.own) return; // the proxy's own question: the client never asked it
      }
    }
    this.client.send(message, raw, this.relatedRequest(message));
  }

  private streamedFromServer(envelope: StreamedEnvelope): void {
    if (envelope.method !== undefined || envelope.id === undefined) return;
    if (envelope.error !== undefined) this.settle(envelope.id, undefined, new McpServerError(envelope.error));
    else {
      // What the gate needs of a result it did not hold: its text, for provenance, and whether it is an error.
      const content = envelope.texts.map((text) => ({ type: 'text', text }));
      this.settle(envelope.id, envelope.isError === undefined ? { content } : { content, isError: envelope.isError }, undefined);
    }
  }

  /** Route a notification to the HTTP stream of the request it reports progress on. */
  private relatedRequest(message: unknown): RequestId | undefined {
    if (!isObject(message) || message.method !== 'notifications/progress' || !isObject(message.params)) return undefined;
    const token = message.params.progressToken;
    if (token === undefined) return undefined;
    for (const [k, p] of this.pending) if (p.progressToken === token) return idOfKey(k);
    return undefined;
  }

  private track(id: RequestId, pending: Pending): void {
    this.pending.set(key(id), pending);
  }

  private settle(id: RequestId, result: unknown, error: Error | undefined): void {
    const p = this.pending.get(key(id));
    if (!p) return;
    this.pending.delete(key(id));
    if (p.own) this.ownRequests -= 1;
    if (error) p.reject?.(error);
    else p.resolve?.(result);
  }

  private serverGone(why: string): void {
    if (this.done) return;
    this.log(`argspan mcp-proxy: the MCP server ${why}`);
    this.done = true;
    // The client is still there: its open forms close now, and the calls they hold are answered (held).
    for (const id of [...this.questions.keys()]) this.withdraw(id, 'the MCP server is gone');
    for (const [k, p] of [...this.pending]) {
      this.pending.delete(k);
      p.reject?.(new McpServerGoneError(`the MCP server ${why}`));
      if (!p.own) this.reply(idOfKey(k), undefined, { code: ErrorCode.ConnectionClosed, message: `argspan mcp-proxy: the MCP server ${why} before answering ${p.method}` });
    }
    this.endRelay({ by: 'server', why });
  }

  private end(end: RelayEnd): void {
    if (this.done) return;
    this.done = true;
    for (const [k, p] of [...this.pending]) {
      this.pending.delete(k);
      p.reject?.(new McpServerGoneError('the client went away'));
    }
    for (const { settle } of [...this.questions.values()]) settle(undefined);
    this.endRelay(end);
  }

  // ——— the gate's questions to the user, through the client ———

  /**
   * Put the gate's question to the user with `elicitation/create` (one text field per key asked
   * about), when the client can; resolves to the answers by key, or undefined when the client
   * cannot ask, the user declined or cancelled, or no answer came within the timeout (the client is
   * then told the question is cancelled).
   */
  private readonly askThroughClient: AskThroughClient = async (question, relayId) => {
    if (!this.clientAsks || this.done || (relayId !== undefined && this.openCalls.get(key(relayId)) === true)) return undefined;
    const id = `${QUESTION_ID_PREFIX}${++this.questionSeq}`;
    const names = question.fields.map((_, i) => `answer_${i + 1}`);
    const properties: Record<string, unknown> = {};
    question.fields.forEach((field, i) => (properties[names[i]!] = { type: 'string', title: field, description: `the value of \`${field}\` for ${question.tool}` }));
    const result = await new Promise<unknown>((resolve) => {
      const timer = setTimeout(() => this.withdraw(id, 'no answer in time'), this.options.askTimeoutMs);
      this.questions.set(id, {
        relayId,
        settle: (r) => {
          clearTimeout(timer);
          this.questions.delete(id);
          resolve(r);
        },
      });
      this.client.send({ jsonrpc: '2.0', id, method: 'elicitation/create', params: { message: question.question, requestedSchema: { type: 'object', properties, required: names } } }, undefined, relayId);
    });
    if (!isObject(result) || result.action !== 'accept' || !isObject(result.content)) return undefined;
    const content = result.content;
    // (built from entries: a key such as `__proto__` is an own field like any other)
    return Object.fromEntries(question.fields.flatMap((field, i) => (typeof content[names[i]!] === 'string' ? [[field, content[names[i]!] as string]] : [])));
  };

  /** Whether `message` answers one of the proxy's questions (then it is taken here, never passed to the server). */
  private answered(message: unknown): boolean {
    if (!isObject(message) || message.method !== undefined || typeof message.id !== 'string' || !message.id.startsWith(QUESTION_ID_PREFIX)) return false;
    // An error, or an answer after the timeout (the question is gone), settles nothing the server should see.
    this.questions.get(message.id)?.settle('error' in message ? undefined : message.result);
    return true;
  }

  /**
   * The client cancelled a tools/call whose question is open (its own request timeout, the user
   * stopped the agent): the question is withdrawn at once, not after the call it waits behind. A
   * call cancelled while it waits its turn is marked, so that it is never asked about.
   */
  private closeQuestionsOfCancelled(message: unknown): void {
    if (!isObject(message) || message.method !== 'notifications/cancelled' || !isObject(message.params)) return;
    const cancelled = message.params.requestId;
    if (isRequestId(cancelled) && this.openCalls.has(key(cancelled))) {
      this.openCalls.set(key(cancelled), true);
      this.releases.get(key(cancelled))?.();
    }
    for (const [id, q] of [...this.questions]) if (q.relayId === cancelled) this.withdraw(id, 'the call was cancelled');
  }

  /** Settle a question with no answer and tell the client it is cancelled (its form can close). */
  private withdraw(id: string, reason: string): void {
    const q = this.questions.get(id);
    if (!q) return;
    q.settle(undefined);
    this.client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }, undefined, q.relayId);
  }

  // ——— answers of the proxy's own ———

  private reply(id: RequestId | null, result: unknown, error?: { code: number; message: string }): void {
    this.client.send(error ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result });
  }

  // ——— span attributes from initialize ———

  private noteClient(params: unknown): void {
    if (!isObject(params)) return;
    const info = isObject(params.clientInfo) ? params.clientInfo : {};
    setInfo(this.peer, McpAttributes.CLIENT_NAME, info.name);
    setInfo(this.peer, McpAttributes.CLIENT_VERSION, info.version);
    setInfo(this.peer, McpAttributes.PROTOCOL_VERSION, params.protocolVersion);
    // `elicitation: {}` is a form-capable client (2025-06-18); from 2025-11-25 a client may list its modes.
    const elicitation = isObject(params.capabilities) ? params.capabilities.elicitation : undefined;
    this.clientAsks = isObject(elicitation) && (Object.keys(elicitation).length === 0 || isObject(elicitation.form));
  }

  private noteServer(result: unknown): void {
    if (!isObject(result)) return;
    const info = isObject(result.serverInfo) ? result.serverInfo : {};
    setInfo(this.peer, McpAttributes.SERVER_NAME, info.name);
    setInfo(this.peer, McpAttributes.SERVER_VERSION, info.version);
    if (typeof result.protocolVersion === 'string') {
      setInfo(this.peer, McpAttributes.PROTOCOL_VERSION, result.protocolVersion);
      this.server.setProtocolVersion?.(result.protocolVersion);
    }
  }

  private callAttributes(id: RequestId): Attributes {
    // A number cannot hold a credential; a string id is the client's text and is redacted like its name.
    const attributes: Attributes = { ...this.peer, [McpAttributes.REQUEST_ID]: typeof id === 'number' ? String(id) : infoText(id) };
    // Known only once the HTTP front answered initialize.
    if (this.client.sessionId !== undefined) attributes[McpAttributes.SESSION_ID] = this.client.sessionId;
    return attributes;
  }
}

function setInfo(into: Attributes, attribute: string, value: unknown): void {
  if (typeof value === 'string' && value !== '') into[attribute] = infoText(value);
}

/** A name, version or id for a span: cut, with credential shapes redacted (the client chose it). */
/** A client's or server's name, version or request id as recorded: any credential in it (glued too) as its marker, then cut. */
function infoText(value: string): string {
  return redactedPrefix(value, MAX_INFO_CHARS, (s) => redactName(s));
}

function progressOf(params: unknown): { progressToken?: string | number } {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const token = meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {};
}

/**
 * What the gate needs of `tools/call` params (the SDK's CallToolRequestParams, checked by hand: a
 * schema library costs more per call than the rest of the relay): a string name and, if any,
 * an object of arguments.
 */
function isCallToolParams(params: unknown): params is McpCallToolParams {
  return isObject(params) && typeof params.name === 'string' && (params.arguments === undefined || isObject(params.arguments));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A JSON-RPC response: an id and no method. */
function isResponse(message: unknown): boolean {
  return isObject(message) && message.method === undefined && isRequestId(message.id);
}

function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Map key of a request id: `1` and `"1"` are different ids. */
function key(id: RequestId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

function idOfKey(k: string): RequestId {
  return k[0] === 'n' ? Number(k.slice(1)) : k.slice(1);
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : 'error';
}
