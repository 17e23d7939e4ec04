// Runs in a worker thread with its own heap limit, so a PDF that unpacks to gigabytes fails there, not in the gateway.
// Self-contained on purpose: it is started from source (tests) and from dist alike.
import { parentPort, workerData } from "node:worker_threads";
import { getDocumentProxy } from "unpdf";

const { bytes, maxPages, maxChars } = workerData as { bytes: Uint8Array; maxPages: number; maxChars: number };

async function run(): Promise<{ text: string; pages: number; pagesRead: number }> {
  const pdf = await getDocumentProxy(bytes);
  const pages = pdf.numPages;
  const parts: string[] = [];
  let chars = 0;
  let pagesRead = 0;
  for (let number = 1; number <= Math.min(pages, maxPages) && chars < maxChars; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ("str" in item ? item.str : "")).join(" ");
    parts.push(text);
    chars += text.length;
    pagesRead = number;
  }
  return { text: parts.join("\n\n"), pages, pagesRead };
}

run().then(
  (result) => parentPort?.postMessage({ ok: true, ...result }),
  (error: unknown) =>
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);
