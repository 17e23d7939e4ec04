import { readFile } from "node:fs/promises";

/** A static file of the page. */
export interface WebchatAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

const FILES: Record<string, string> = {
  "/": "index.html",
  "/index.html": "index.html",
  "/app.js": "app.js",
  "/style.css": "style.css",
  "/favicon.svg": "favicon.svg",
};

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};

/**
 * Loads the page's files (apps/bot/public/webchat, the same relative place from src/ and dist/).
 * Contract: rejects when a file is missing (a broken install fails at start, not on the first visit).
 */
export async function loadWebchatAssets(): Promise<ReadonlyMap<string, WebchatAsset>> {
  const dir = new URL("../../public/webchat/", import.meta.url);
  const assets = new Map<string, WebchatAsset>();
  for (const [route, file] of Object.entries(FILES)) {
    const body = await readFile(new URL(file, dir));
    assets.set(route, { body, contentType: TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream" });
  }
  return assets;
}
