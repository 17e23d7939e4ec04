import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { imagesIn, type MediaHarness, startMediaHarness, textOf } from "./fixtures/media-harness.js";

const dm = { chatType: "dm" as const, sender: { id: "u1", name: "Ana" } };

async function photo(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 40, height: 30, channels: 3, background: "#aa0000" } })
      .png()
      .toBuffer(),
  );
}

describe("a file that cannot be read gets one clear sentence; the rest of the message is still answered", () => {
  let m: MediaHarness | undefined;
  afterEach(async () => {
    await m?.close();
    m = undefined;
  });

  it("over the size limit, a corrupt image, a voice note without transcription, a file the platform lost", async () => {
    m = await startMediaHarness({ script: ["Answered anyway.", "Second answer."] });
    const jpegHeaderThenGarbage = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array(200).fill(7)]);
    m.h.channel.addFile("broken", jpegHeaderThenGarbage);
    m.h.channel.addFile("voice", new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...new Array(100).fill(1)]), "audio/ogg");
    m.h.channel.addFile("ok", await photo());
    await m.h.send({
      ...dm,
      text: "here are my files",
      attachments: [
        { id: "huge", name: "video.mp4", sizeBytes: 30 * 1024 * 1024, mimeType: "video/mp4" },
        { id: "broken", name: "broken.jpg", kind: "image" },
        { id: "voice", name: "voice.ogg", kind: "voice" },
        { id: "gone", name: "old.pdf" },
        { id: "ok", name: "fine.png", kind: "image" },
      ],
    });
    await m.h.gateway.idle();
    const said = m.h.channel.transcript("dm-u1");
    expect(said).toContain("video.mp4 is 30.0 MB, over the 20.0 MB limit for one file, so I didn't read it.");
    expect(said).toContain("I couldn't read broken.jpg: the image is damaged or not an image.");
    expect(said).toContain("I can't listen to voice.ogg: no transcription service is set up here. Please send text.");
    expect(said).toContain("I couldn't get old.pdf from test: the file is gone.");
    expect(said).toContain("Answered anyway.");
    // The model still got the message, the readable photo, and a line for each file it could not read.
    const content = m.userContent();
    expect(imagesIn(content)).toHaveLength(1);
    expect(textOf(content)).toContain("here are my files");
    expect(textOf(content)).toContain("[attachment: video.mp4 (video/mp4, 30.0 MB) — not read: over the size limit]");
    // Nothing was downloaded for the file over the limit.
    expect(m.h.channel.fetches).not.toContain("huge");

    // The next turn reads the same transcript again: the chat is not told a second time.
    const before = said.length;
    await m.h.send({ ...dm, text: "thanks" });
    await m.h.gateway.idle();
    expect(m.h.channel.transcript("dm-u1").slice(before)).toEqual(["Second answer."]);
  });

  it("a model without vision gets the image described as unavailable instead of an API error", async () => {
    m = await startMediaHarness({
      script: ["I can't see it."],
      model: { capabilities: { tools: true, thinking: false, images: false } },
    });
    m.h.channel.addFile("p", await photo());
    await m.h.send({ ...dm, text: "what is this?", attachments: [{ id: "p", name: "cat.png", kind: "image" }] });
    await m.h.gateway.idle();
    expect(imagesIn(m.userContent())).toHaveLength(0);
    expect(textOf(m.userContent())).toContain("[attachment: cat.png (image/png");
    expect(textOf(m.userContent())).toContain("not read: this model cannot see images]");
    expect(m.h.channel.transcript("dm-u1")).toContain(
      "The model here can't see images, so I couldn't look at cat.png.",
    );
    expect(m.h.channel.transcript("dm-u1")).toContain("I can't see it.");
  });

  it("files over the per-message limit are listed as not read, with one sentence naming them", async () => {
    m = await startMediaHarness({ script: ["ok"], config: { limits: { maxFilesPerMessage: 2 } } });
    const bytes = await photo();
    for (const id of ["1", "2", "3", "4"]) m.h.channel.addFile(id, bytes);
    await m.h.send({
      ...dm,
      text: "four photos",
      attachments: ["1", "2", "3", "4"].map((id) => ({ id, name: `p${id}.png`, kind: "image" as const })),
    });
    await m.h.gateway.idle();
    expect(imagesIn(m.userContent())).toHaveLength(2);
    expect(m.h.channel.fetches).toEqual(["1", "2"]);
    expect(m.h.channel.transcript("dm-u1")).toContain(
      "I read only the first 2 files of a message; I didn't read p3.png, p4.png.",
    );
  });

  it("an agent's own limits override the defaults", async () => {
    m = await startMediaHarness({ script: ["ok"], config: { agents: { main: { limits: { maxFileBytes: 2048 } } } } });
    m.h.channel.addFile("p", await photo());
    await m.h.send({
      ...dm,
      text: "small?",
      attachments: [{ id: "p", name: "p.png", sizeBytes: 4096, kind: "image" }],
    });
    await m.h.gateway.idle();
    expect(m.h.channel.transcript("dm-u1")).toContain(
      "p.png is 4.0 KB, over the 2.0 KB limit for one file, so I didn't read it.",
    );
  });
});

describe("side calls (a compaction's summary, memory, titles)", () => {
  it("get a line naming each file, not its bytes, and the chat is not told anything", async () => {
    const { mediaStreamFn } = await import("../src/index.js");
    const { scriptedStreamFn, fakeModel } = await import("@chorus/core/testing");
    const inner = scriptedStreamFn(["summary"]);
    let resolved = 0;
    const wrapped = mediaStreamFn(inner, {
      mediaOf: () => undefined,
      resolve: async () => {
        resolved++;
        throw new Error("not for side calls");
      },
      tell: () => {},
    });
    const source = { channel: "test", accountId: "main", id: "p", chatId: "c", messageId: "m" };
    const stream = wrapped(
      fakeModel(),
      {
        messages: [
          {
            role: "user",
            content: [{ type: "attachment", name: "cat.png", mimeType: "image/png", sizeBytes: 2048, source }],
            timestamp: 1,
          },
        ],
      },
      { sessionId: "agent:main:test:main:dm:u1", purpose: "compaction" },
    );
    await stream.result();
    expect(resolved).toBe(0);
    const sent = inner.calls[0]?.context.messages[0];
    expect(sent?.content).toEqual([
      { type: "text", text: "[attachment: cat.png (image/png, 2.0 KB) — was in the conversation; not repeated here]" },
    ]);
  });
});
