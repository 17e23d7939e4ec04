import { rmSync } from "node:fs";
import { join } from "node:path";
import type { DocumentContent } from "@chorus/core";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { imagesIn, type MediaHarness, startMediaHarness, textOf } from "./fixtures/media-harness.js";
import { tinyPdf } from "./fixtures/tiny-pdf.js";

const dm = { chatType: "dm" as const, sender: { id: "u1", name: "Ana" } };

async function bigPhoto(): Promise<Uint8Array> {
  const buffer = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#3366cc" } })
    .jpeg()
    .toBuffer();
  return new Uint8Array(buffer);
}

describe("what people send reaches the model", () => {
  let m: MediaHarness | undefined;
  afterEach(async () => {
    await m?.close();
    m = undefined;
  });

  it("a photo without a caption is an image, resized to the model's limit; the next turn reads it from the cache", async () => {
    m = await startMediaHarness({ script: ["A blue rectangle.", "Still blue."] });
    const photo = await bigPhoto();
    m.h.channel.addFile("photo-1", photo, "image/jpeg");
    await m.h.send({
      ...dm,
      text: "",
      attachments: [{ id: "photo-1", name: "photo.jpg", kind: "image", sizeBytes: photo.byteLength }],
    });
    const [image] = imagesIn(m.userContent());
    expect(image?.mimeType).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(image?.data ?? "", "base64")).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(1568);
    expect(m.h.channel.transcript("dm-u1").at(-1)).toBe("A blue rectangle.");
    // The transcript keeps a reference, never the bytes.
    const stored = await m.h.store.readTranscript(m.h.streamFn.calls[0]?.options?.sessionId ?? "");
    expect(JSON.stringify(stored)).not.toContain(image?.data.slice(0, 100));
    expect(JSON.stringify(stored)).toContain('"type":"attachment"');

    await m.h.send({ ...dm, text: "and now?" });
    expect(imagesIn(allUserContent(m, 1))).toHaveLength(1);
    expect(m.h.channel.fetches).toEqual(["photo-1"]);
  });

  it("a file the cache lost is fetched from the platform again", async () => {
    m = await startMediaHarness({ script: ["one", "two"] });
    const photo = await bigPhoto();
    m.h.channel.addFile("photo-2", photo, "image/jpeg");
    await m.h.send({ ...dm, text: "look", attachments: [{ id: "photo-2", name: "p.jpg", kind: "image" }] });
    rmSync(join(m.dir, "media", "cache"), { recursive: true, force: true });
    await m.h.send({ ...dm, text: "again" });
    expect(m.h.channel.fetches).toEqual(["photo-2", "photo-2"]);
    expect(imagesIn(allUserContent(m, 1))).toHaveLength(1);
  });

  it("after a restart the turn sees the same attachment from the cache, and no problem is told twice", async () => {
    m = await startMediaHarness({ script: ["first"] });
    const photo = await bigPhoto();
    m.h.channel.addFile("photo-3", photo);
    await m.h.send({
      ...dm,
      text: "keep these",
      attachments: [
        { id: "photo-3", name: "p.jpg", kind: "image" },
        { id: "lost", name: "gone.txt" },
      ],
    });
    await m.h.gateway.idle();
    expect(m.h.channel.transcript("dm-u1")).toContain("I couldn't get gone.txt from test: the file is gone.");
    const { dir } = m;
    const store = m.h.store;
    await m.h.gateway.stop();
    const restarted = await startMediaHarness({ script: ["second"], store, dir });
    try {
      restarted.h.channel.addFile("photo-3", photo);
      // A new id: the restarted test channel counts its message ids from 1 again.
      await restarted.h.send({ ...dm, messageId: "after-restart", text: "still there?" });
      await restarted.h.gateway.idle();
      expect(imagesIn(allUserContent(restarted, 0))).toHaveLength(1);
      expect(restarted.h.channel.fetches).toEqual(["lost"]);
      expect(restarted.h.channel.transcript("dm-u1")).toEqual(["second"]);
    } finally {
      await restarted.close();
      rmSync(dir, { recursive: true, force: true });
    }
    m = undefined;
  });

  it("a PDF is a document for a model that reads them, and its text for one that does not", async () => {
    const pdf = tinyPdf(["Quarterly revenue rose 12 percent", "Second page"]);
    m = await startMediaHarness({
      script: ["ok"],
      model: { capabilities: { tools: true, thinking: false, images: true, documents: true } },
    });
    m.h.channel.addFile("pdf-1", pdf, "application/pdf");
    await m.h.send({
      ...dm,
      text: "summarise",
      attachments: [{ id: "pdf-1", name: "q3.pdf", mimeType: "application/pdf" }],
    });
    const document = m.userContent().find((part): part is DocumentContent => part.type === "document");
    expect(document?.name).toBe("q3.pdf");
    expect(Buffer.from(document?.data ?? "", "base64").equals(Buffer.from(pdf))).toBe(true);
    await m.close();

    m = await startMediaHarness({
      script: ["ok"],
      model: { capabilities: { tools: true, thinking: false, images: true } },
    });
    m.h.channel.addFile("pdf-1", pdf, "application/pdf");
    await m.h.send({
      ...dm,
      text: "summarise",
      attachments: [{ id: "pdf-1", name: "q3.pdf", mimeType: "application/pdf" }],
    });
    const text = textOf(m.userContent());
    expect(text).toContain("[document: q3.pdf]");
    expect(text).toContain("Quarterly revenue rose 12 percent");
    expect(text).toContain("Second page");
  });

  it("a text file is text; a file it cannot read is listed with its name, type and size; the type is sniffed", async () => {
    m = await startMediaHarness({ script: ["ok"] });
    m.h.channel.addFile("csv-1", new TextEncoder().encode("city,temp\nOslo,3\n"));
    // Named like an image, but its bytes are a zip archive: sniffed as such, not shown to the model as an image.
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(40).fill(0)]);
    m.h.channel.addFile("fake-png", zip, "image/png");
    await m.h.send({
      ...dm,
      text: "two files",
      attachments: [
        { id: "csv-1", name: "temps.csv", mimeType: "text/csv" },
        { id: "fake-png", name: "cat.png", mimeType: "image/png", sizeBytes: 44 },
      ],
    });
    const content = m.userContent();
    const text = textOf(content);
    expect(text).toContain("[file: temps.csv]\ncity,temp\nOslo,3");
    expect(text).toContain("[attachment: cat.png (application/zip, 44 B) — a kind of file I cannot read]");
    expect(imagesIn(content)).toHaveLength(0);
  });

  it("a message's caption and its album of photos are one user message", async () => {
    m = await startMediaHarness({ script: ["two photos"] });
    const photo = await bigPhoto();
    m.h.channel.addFile("a", photo);
    m.h.channel.addFile("b", photo);
    await m.h.send({
      ...dm,
      text: "our trip",
      attachments: [
        { id: "a", name: "a.jpg", kind: "image" },
        { id: "b", name: "b.jpg", kind: "image" },
      ],
    });
    const content = m.userContent();
    expect(content[0]).toEqual({ type: "text", text: "our trip" });
    expect(imagesIn(content)).toHaveLength(2);
  });
});

/** Every part of every user message the model got in call `i`. */
function allUserContent(m: MediaHarness, i: number) {
  const call = m.h.streamFn.calls[i];
  return (call?.context.messages ?? []).flatMap((message) =>
    message.role === "user" && typeof message.content !== "string" ? message.content : [],
  );
}
