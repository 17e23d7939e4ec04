/**
 * Turns texts into vectors, one per text, in order. Contract: rejects (never hangs past `signal`) when it cannot;
 * recall then falls back to full-text ranking alone.
 */
export type Embedder = (texts: readonly string[], signal?: AbortSignal) => Promise<Float32Array[]>;
