import { type FakeLlmServer, type RecordedLlmRequest, startFakeOpenAI } from "@chorus/testkit";

const KEY = /bench\d+x/g;

/** The answer the fake model gives to a conversation whose latest message carries `key`. */
export function modelAnswer(key: string): string {
  return `ok ${key}`;
}

/** The last message key in a request (the latest user message comes last in every API's body). */
function lastKey(request: RecordedLlmRequest): string | undefined {
  const body = request.body;
  const matches = JSON.stringify(body.messages ?? body.input ?? body).match(KEY);
  return matches?.[matches.length - 1];
}

/**
 * Starts the OpenAI-compatible fake every system's model calls go to: it streams `ok <key>` in one delta at once,
 * for every request, the key being the one in the latest user message (so each reply names the message it answers).
 */
export function startBenchModel(): Promise<FakeLlmServer> {
  return startFakeOpenAI({
    answerEvery: (request) => {
      const key = lastKey(request);
      return [{ type: "text", text: key === undefined ? "ok" : modelAnswer(key), chunks: 1 }];
    },
  });
}
