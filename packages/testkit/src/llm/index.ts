// Fake LLM servers speaking the real Anthropic and OpenAI wire protocols.
export { startFakeAnthropic } from "./fake-anthropic.js";
export type { FakeLlmScriptSource, FakeLlmServer, RecordedLlmRequest, RecordedUpload } from "./fake-llm-server.js";
export { type FakeOpenAIOptions, startFakeOpenAI } from "./fake-openai.js";
export { type ImageFacts, imageFacts } from "./image-facts.js";
export { type MediaParts, mediaParts, type RecordedDocument, type RecordedImage } from "./media-parts.js";
export type { ChatReasoningField } from "./openai-chat-wire.js";
export { type FakeEmbedFunction, hashedWordEmbedding } from "./openai-embeddings-wire.js";
export {
  type FakeTranscription,
  type RecordedTranscription,
  transcriptionUploads,
} from "./openai-transcriptions-wire.js";
export type {
  FakeContentStep,
  FakeHttpFault,
  FakeLlmScript,
  FakeLlmStep,
  FakeStopReason,
  FakeStopStep,
  FakeStreamFault,
  FakeUsageStep,
} from "./script.js";
