import { type FakeLlmServer, startFakeOpenAI, transcriptionUploads } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type MediaHarness, startMediaHarness, textOf } from "./fixtures/media-harness.js";

const dm = { chatType: "dm" as const, sender: { id: "u1", name: "Ana" } };
/** Enough of an Ogg page for the type to be sniffed as Ogg. */
const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0x00, 0x02, ...new Array(120).fill(3)]);

describe("voice notes are transcribed by an OpenAI-compatible endpoint", () => {
  let m: MediaHarness | undefined;
  let whisper: FakeLlmServer | undefined;
  afterEach(async () => {
    await m?.close();
    await whisper?.close();
    m = undefined;
    whisper = undefined;
  });

  it("the transcript is the message's text with a line saying it was transcribed; it is made once", async () => {
    whisper = await startFakeOpenAI({
      apiKey: "sk-whisper-test-key",
      transcriptions: ["Can you book a table for two?"],
    });
    m = await startMediaHarness({
      script: ["Booked.", "Yes."],
      config: { transcription: { baseUrl: whisper.url, apiKey: "sk-whisper-test-key", model: "whisper-1" } },
    });
    m.h.channel.addFile("v1", OGG, "audio/ogg");
    await m.h.send({
      ...dm,
      text: "",
      attachments: [{ id: "v1", name: "voice", kind: "voice", sizeBytes: OGG.byteLength }],
    });
    expect(textOf(m.userContent())).toBe("[voice note voice, transcribed]: Can you book a table for two?");
    const uploads = transcriptionUploads(whisper);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.name).toBe("voice.ogg");
    expect(uploads[0]?.model).toBe("whisper-1");
    expect(Buffer.from(uploads[0]?.bytes ?? []).equals(Buffer.from(OGG))).toBe(true);
    // The next turn reads the transcript from the cache: the endpoint is not asked again.
    await m.h.send({ ...dm, text: "is it done?" });
    expect(transcriptionUploads(whisper)).toHaveLength(1);
    expect(m.h.channel.transcript("dm-u1")).toEqual(["Booked.", "Yes."]);
  });

  it("an endpoint that fails gets one sentence; an agent can turn transcription off", async () => {
    whisper = await startFakeOpenAI({ transcriptions: [{ type: "server_error" }] });
    m = await startMediaHarness({
      script: ["Answered."],
      config: {
        transcription: { baseUrl: whisper.url },
        agents: { other: { transcription: false } },
      },
    });
    m.h.channel.addFile("v2", OGG, "audio/ogg");
    await m.h.send({ ...dm, text: "listen", attachments: [{ id: "v2", name: "note.ogg", kind: "voice" }] });
    await m.h.gateway.idle();
    expect(m.h.channel.transcript("dm-u1")).toContain("I couldn't transcribe note.ogg; please try again or send text.");
    expect(m.h.channel.transcript("dm-u1")).toContain("Answered.");
  });
});
