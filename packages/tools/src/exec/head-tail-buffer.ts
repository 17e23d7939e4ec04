/**
 * Keeps the first `headBytes` and the last `tailBytes` of a byte stream and counts the rest,
 * so a command that prints gigabytes costs bounded memory. Also keeps up to `keepBytes` of the
 * whole stream for the spill file.
 */
export class HeadTailBuffer {
  private head = Buffer.alloc(0);
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  private kept: Buffer[] = [];
  private keptLength = 0;
  /** Bytes seen in all. */
  total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
    private readonly keepBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.keptLength < this.keepBytes) {
      const room = this.keepBytes - this.keptLength;
      const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.kept.push(piece);
      this.keptLength += piece.length;
    }
    let rest = chunk;
    if (this.head.length < this.headBytes) {
      const take = Math.min(this.headBytes - this.head.length, rest.length);
      this.head = Buffer.concat([this.head, rest.subarray(0, take)]);
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tailChunks.push(rest);
    this.tailLength += rest.length;
    while (this.tailChunks.length > 1 && this.tailLength - (this.tailChunks[0]?.length ?? 0) >= this.tailBytes) {
      this.tailLength -= this.tailChunks.shift()?.length ?? 0;
    }
  }

  /** True when more was seen than head + tail can show. */
  get cut(): boolean {
    return this.total > this.headBytes + this.tailBytes;
  }

  /** Bytes not shown by `render`. */
  get cutBytes(): number {
    return Math.max(0, this.total - this.headBytes - this.tailBytes);
  }

  /** Whether the kept copy is the whole stream. */
  get keptAll(): boolean {
    return this.keptLength === this.total;
  }

  /** The kept copy of the stream (the whole stream when `keptAll`). */
  keptText(): string {
    return Buffer.concat(this.kept).toString("utf8");
  }

  /** Head and tail joined by `note(cutBytes)` when something was cut, else the whole output. */
  render(note: (cutBytes: number) => string): string {
    const tail = Buffer.concat(this.tailChunks);
    if (!this.cut) return Buffer.concat([this.head, tail]).toString("utf8");
    const tailShown = tail.subarray(tail.length - this.tailBytes);
    return `${this.head.toString("utf8")}${note(this.cutBytes)}${tailShown.toString("utf8")}`;
  }
}
