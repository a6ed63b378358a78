import { JsonEnvelopeScanner, type StreamedEnvelope } from './json-envelope.js';
import type { LineSink } from './links.js';

const NEWLINE = 0x0a;

/** How a {@link LineReader} streams lines too large to hold. */
export interface LineStreaming {
  sink: LineSink;
  /** Whether the line starting now may be streamed. */
  canStream: () => boolean;
  /** Bytes past which a line is streamed instead of held. */
  threshold: number;
  /** Most text kept of a streamed line (the provenance context cap). */
  maxTextBytes: number;
  /** A streamed line ended. */
  onStreamed: (envelope: StreamedEnvelope) => void;
  /** Pause the source while the sink is congested, resume on drain. */
  pause: () => void;
  resume: () => void;
}

/**
 * Splits a byte stream into newline-delimited lines (MCP's stdio framing). A line is held in pieces
 * and joined once, when it ends. A line over `maxLineBytes` is a fault (`onOversize`, the rest of it
 * skipped). With streaming set, a line over the threshold is written to the sink as it arrives and
 * scanned for its envelope instead of being held.
 */
export class LineReader {
  private pieces: Uint8Array[] = [];
  private bytes = 0;
  private skipping = false;
  private streaming: JsonEnvelopeScanner | undefined;
  private stream: LineStreaming | undefined;
  /** Waiting for the sink to drain (the source is paused). */
  private congested = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: Uint8Array) => void,
    private readonly onOversize: () => void,
  ) {}

  /** Stream lines over the threshold from now on. */
  setStreaming(stream: LineStreaming): void {
    this.stream = stream;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) this.take(chunk.subarray(start, end));
      if (nl === -1) return;
      this.endOfLine();
      start = nl + 1;
    }
  }

  private take(piece: Uint8Array): void {
    if (this.skipping) return;
    if (this.streaming) return this.streamPiece(piece);
    this.pieces.push(piece);
    this.bytes += piece.length;
    const s = this.stream;
    if (s && this.bytes > s.threshold && s.canStream()) {
      // Too large to hold: what is held goes out first, the rest as it arrives.
      this.streaming = new JsonEnvelopeScanner(s.maxTextBytes);
      s.sink.beginLine();
      const held = this.pieces;
      this.pieces = [];
      this.bytes = 0;
      for (const p of held) this.streamPiece(p);
      return;
    }
    if (this.bytes > this.maxLineBytes) {
      this.pieces = [];
      this.bytes = 0;
      this.skipping = true;
      this.onOversize();
    }
  }

  private streamPiece(piece: Uint8Array): void {
    this.streaming!.write(piece);
    // The chunk may be reused by the stream after this call: the sink gets its own copy only if it queues it.
    if (!this.stream!.sink.writePiece(piece) && !this.congested) {
      this.congested = true;
      this.stream!.pause();
      this.stream!.sink.onDrain(() => {
        this.congested = false;
        this.stream!.resume();
      });
    }
  }

  private endOfLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    if (this.streaming) {
      const envelope = this.streaming.finish();
      this.streaming = undefined;
      this.stream!.sink.endLine();
      this.stream!.onStreamed(envelope);
      return;
    }
    const pieces = this.pieces;
    this.pieces = [];
    this.bytes = 0;
    let line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    if (line.length > 0) this.onLine(line);
  }

  /** Whether a line is being streamed (the source ended mid-line when this is true at its end). */
  get midStream(): boolean {
    return this.streaming !== undefined;
  }

  /** End a line the source cut off: a streamed line is closed so the output stays line-framed. */
  abandon(): void {
    if (this.streaming) {
      this.streaming = undefined;
      this.stream!.sink.endLine();
    }
    this.pieces = [];
    this.bytes = 0;
  }
}
