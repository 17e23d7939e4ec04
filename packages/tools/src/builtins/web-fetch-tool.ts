import { defineTool } from "@chorus/core";
import { z } from "zod";
import { textOutput } from "../tool-results/text-results.js";
import { type WebFetchOptions, webFetch } from "../web/web-fetch.js";
import { fitOutput } from "../workspace/output-spill.js";
import { defaultSessionOutputs, type SessionOutputs } from "../workspace/session-outputs.js";
import { runSafely } from "./run-safely.js";

/**
 * web_fetch: GET an http(s) URL behind the SSRF guard. A long page is cut and saved for the calling session only
 * (`outputs`, default defaultSessionOutputs()). Concurrency-safe.
 */
export function webFetchTool(
  options: Omit<WebFetchOptions, "signal"> & { maxOutputChars?: number } = {},
  outputs: SessionOutputs = defaultSessionOutputs(),
) {
  const { maxOutputChars = 40_000, ...fetchOptions } = options;
  return defineTool({
    name: "web_fetch",
    description:
      "Fetch a public web page or API over http/https (GET) and return its text; HTML is converted to plain text. " +
      "Private, local and cloud-metadata addresses are refused. Long pages are cut and saved in full to a file you can read_file.",
    parameters: z.object({ url: z.url().describe("Absolute http:// or https:// URL") }),
    category: "info",
    concurrencySafe: true,
    // Our own time cap (with its clear message) must fire before core's category timeout.
    timeoutMs: (fetchOptions.timeoutMs ?? 30_000) + 5_000,
    execute: (args, ctx) =>
      runSafely(async () => {
        const page = await webFetch(args, { ...fetchOptions, signal: ctx.signal });
        const header = `HTTP ${page.status} ${page.finalUrl}\ncontent-type: ${page.contentType}${page.truncated ? `\n[body stopped after ${page.bytesRead} bytes]` : ""}\n\n`;
        const fitted = await fitOutput(outputs, ctx.run, page.text, maxOutputChars);
        return textOutput(header + fitted.text, {
          status: page.status,
          finalUrl: page.finalUrl,
          bytesRead: page.bytesRead,
          spill: fitted.spill,
        });
      }),
  });
}
