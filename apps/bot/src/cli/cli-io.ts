/** What a CLI command reads and writes, so tests can run commands in-process. */
export interface CliIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
}

/** The real process's streams, folder and environment. */
export function processIo(): CliIo {
  return { cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
}
