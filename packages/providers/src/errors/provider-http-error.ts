import { cleanMessage } from "./classify-error.js";

const MAX_ERROR_BODY_CHARS = 16_384;

/**
 * A model API's HTTP failure, shaped as the SDKs shape theirs (`status`, `headers`, the body's `error` object and its
 * `code`/`type`), so `classifyProviderError` reads it the same way. The message is the SDKs' too:
 * "<status> <error.message>", or "<status> status code (no body)".
 */
export class ProviderHttpError extends Error {
  readonly status: number;
  readonly headers: Headers;
  readonly error: unknown;
  readonly code: unknown;
  readonly type: unknown;

  constructor(status: number, headers: Headers, body: string) {
    const parsed = parseJson(body);
    const error =
      parsed !== undefined && typeof parsed === "object" && parsed !== null && "error" in parsed
        ? (parsed as { error: unknown }).error
        : parsed;
    super(cleanMessage(httpErrorMessage(status, error, body)));
    this.name = "ProviderHttpError";
    this.status = status;
    this.headers = headers;
    this.error = error;
    const fields = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
    this.code = fields.code;
    this.type = fields.type;
  }

  /** Reads a failed response's body (at most 16 KiB of it) into the error. Contract: never throws a read error. */
  static async of(response: Response): Promise<ProviderHttpError> {
    let body = "";
    try {
      body = (await response.text()).slice(0, MAX_ERROR_BODY_CHARS);
    } catch {
      // The status alone still classifies the failure.
    }
    return new ProviderHttpError(response.status, response.headers, body);
  }
}

function httpErrorMessage(status: number, error: unknown, body: string): string {
  const fields = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : undefined;
  const text =
    typeof fields?.message === "string"
      ? fields.message
      : fields?.message !== undefined
        ? JSON.stringify(fields.message)
        : error !== undefined
          ? JSON.stringify(error)
          : body.trim();
  return text ? `${status} ${text}` : `${status} status code (no body)`;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
