import { PassThrough } from "node:stream";
import type { CliIo } from "../../src/cli/cli-io.js";

/** A CliIo whose output is collected, for running CLI commands in-process. */
export function captureIo(cwd: string, env: NodeJS.ProcessEnv): CliIo & { out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(String(chunk)));
  stderr.on("data", (chunk: Buffer) => err.push(String(chunk)));
  return { cwd, env, stdout, stderr, stdin: new PassThrough(), out: () => out.join(""), err: () => err.join("") };
}
