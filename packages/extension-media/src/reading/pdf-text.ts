import { Worker } from "node:worker_threads";

/** A PDF's text, as far as it was read. */
export interface PdfText {
  readonly text: string;
  readonly pages: number;
  readonly pagesRead: number;
}

/** A PDF whose text could not be read (damaged, encrypted, too big to unpack, too slow). */
export class PdfUnreadableError extends Error {
  override readonly name = "PdfUnreadableError";
}

const WORKER_HEAP_MB = 256;

/**
 * The text of a PDF, read in a worker thread with its own heap cap and a deadline, so a PDF built to unpack to
 * gigabytes (a zip bomb's cousin) or to take forever ends that worker, not the gateway. Reads at most `maxPages`
 * pages and about `maxChars` characters. Contract: rejects with PdfUnreadableError.
 */
export function pdfText(
  bytes: Uint8Array,
  limits: { readonly maxPages: number; readonly maxChars: number; readonly timeoutMs: number },
): Promise<PdfText> {
  const source = import.meta.url.endsWith(".ts") ? "./pdf-text-worker.ts" : "./pdf-text-worker.js";
  const worker = new Worker(new URL(source, import.meta.url), {
    workerData: { bytes, maxPages: limits.maxPages, maxChars: limits.maxChars },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<PdfText>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new PdfUnreadableError("reading the PDF took too long"));
    }, limits.timeoutMs);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    worker.once("message", (message: { ok: boolean; message?: string } & Partial<PdfText>) => {
      settle(() =>
        message.ok
          ? resolve({ text: message.text ?? "", pages: message.pages ?? 0, pagesRead: message.pagesRead ?? 0 })
          : reject(new PdfUnreadableError(`the PDF could not be read: ${message.message ?? "unknown error"}`)),
      );
    });
    worker.once("error", (error) =>
      settle(() => reject(new PdfUnreadableError(`the PDF could not be read: ${error.message}`))),
    );
    worker.once("exit", (code) => settle(() => reject(new PdfUnreadableError(`the PDF reader stopped (${code})`))));
  });
}
