/** One part of a `multipart/form-data` body. */
export interface MultipartPart {
  readonly name: string;
  /** Present for a file part (`filename=` in its Content-Disposition). */
  readonly filename?: string;
  readonly contentType?: string;
  readonly data: Buffer;
}

/** A parsed `multipart/form-data` body: text fields by name, and the file parts in order. */
export interface MultipartBody {
  readonly fields: Record<string, string>;
  readonly files: readonly MultipartPart[];
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary of a `multipart/form-data` Content-Type; undefined for any other type. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^\s*multipart\/form-data/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Parses a `multipart/form-data` body as platform servers do, leniently: header names in any case, with or without a
 * space after the colon, `name` and `filename` quoted or not (grammy writes `filename=photo.jpg` bare).
 * Contract: never throws; undefined when the Content-Type is not multipart or the body has no closing boundary.
 */
export function parseMultipart(contentType: string | undefined, raw: Buffer): MultipartBody | undefined {
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string> = {};
  const files: MultipartPart[] = [];
  let at = raw.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    const afterDelimiter = at + delimiter.length;
    if (raw.subarray(afterDelimiter, afterDelimiter + 2).toString("latin1") === "--") break;
    const headersStart = raw.indexOf(CRLF, afterDelimiter);
    if (headersStart < 0) return undefined;
    const headersEnd = raw.indexOf(HEADER_END, headersStart);
    if (headersEnd < 0) return undefined;
    const next = raw.indexOf(Buffer.concat([CRLF, delimiter]), headersEnd + HEADER_END.length);
    if (next < 0) return undefined;
    const headers = readHeaders(raw.subarray(headersStart + CRLF.length, headersEnd).toString("utf8"));
    const disposition = headers.get("content-disposition") ?? "";
    const name = dispositionParam(disposition, "name");
    const filename = dispositionParam(disposition, "filename");
    const data = raw.subarray(headersEnd + HEADER_END.length, next);
    if (name !== undefined) {
      if (filename === undefined) fields[name] = data.toString("utf8");
      else {
        const type = headers.get("content-type");
        files.push({ name, filename, data, ...(type === undefined ? {} : { contentType: type }) });
      }
    }
    at = next + CRLF.length;
  }
  return { fields, files };
}

function readHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function dispositionParam(disposition: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, "i").exec(disposition);
  if (match === null) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? "").trim();
}
