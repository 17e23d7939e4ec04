import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PdfUnreadableError, pdfText } from "../src/index.js";
import { tinyPdf } from "./fixtures/tiny-pdf.js";

/** A one-page PDF whose content stream is small on disk and unpacks to `inflated` bytes of text operators. */
function bombPdf(inflated: number): Uint8Array {
  const operator = "(A) Tj ";
  const content = Buffer.from(`BT /F1 1 Tf ${operator.repeat(Math.ceil(inflated / operator.length))} ET`);
  const packed = deflateSync(content, { level: 9 });
  const head = Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n" +
      "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj\n" +
      `4 0 obj << /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`,
  );
  const tail = Buffer.from(
    "\nendstream endobj\n5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
  );
  return new Uint8Array(Buffer.concat([head, packed, tail]));
}

describe("the PDF reader", () => {
  it("reads the text of each page, up to its page cap", async () => {
    const read = await pdfText(tinyPdf(["first page", "second page", "third page"]), {
      maxPages: 2,
      maxChars: 10_000,
      timeoutMs: 20_000,
    });
    expect(read.text).toContain("first page");
    expect(read.text).toContain("second page");
    expect(read.text).not.toContain("third page");
    expect([read.pagesRead, read.pages]).toEqual([2, 3]);
  });

  it("a damaged PDF is a clear error, not a crash", async () => {
    const damaged = new TextEncoder().encode("%PDF-1.7\nthis is not really a PDF at all\n");
    await expect(pdfText(damaged, { maxPages: 10, maxChars: 1000, timeoutMs: 20_000 })).rejects.toBeInstanceOf(
      PdfUnreadableError,
    );
  });

  it("a PDF that unpacks to far more than it weighs ends its worker (heap cap or deadline), not the process", async () => {
    const bomb = bombPdf(80 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().heapUsed;
    await expect(pdfText(bomb, { maxPages: 10, maxChars: 100_000, timeoutMs: 4_000 })).rejects.toBeInstanceOf(
      PdfUnreadableError,
    );
    // The gateway's own heap did not take the blow.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
  }, 20_000);
});
