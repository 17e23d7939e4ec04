import { Bot, GrammyError } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

// Issue #32's first step: the fake Telegram serves the files people send, as the Bot API does — `getFile` gives a
// `file_path`, and `<apiRoot>/file/bot<token>/<file_path>` its bytes — so a channel's download is tested end to end.

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 0xff, 0xd9]);

describe("files people send to the fake Telegram", () => {
  it("are described by getFile and downloaded from the file route, byte for byte", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const { item: payload } = await fake.injectMedia({ kind: "photo", bytes: PHOTO, caption: "my cat" });
    const [size] = payload.photo ?? [];
    expect(size?.file_size).toBe(PHOTO.byteLength);
    expect(payload.caption).toBe("my cat");

    const file = await bot.api.getFile(size?.file_id ?? "");
    expect(file).toMatchObject({ file_id: size?.file_id, file_size: PHOTO.byteLength });
    expect(file.file_path).toMatch(/^photos\/file_\d+\.jpg$/);
    const response = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PHOTO);
  });

  it("keeps a document's name and type, and refuses an id it never issued", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const bytes = new TextEncoder().encode("a,b\n1,2\n");
    const { item: payload } = await fake.injectMedia({
      kind: "document",
      bytes,
      fileName: "data.csv",
      mimeType: "text/csv",
    });
    expect(payload.document).toMatchObject({
      file_name: "data.csv",
      mime_type: "text/csv",
      file_size: bytes.byteLength,
    });
    const file = await bot.api.getFile(payload.document?.file_id ?? "");
    expect(file.file_path).toMatch(/^documents\//);

    const refused = await bot.api.getFile("never-issued").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GrammyError);
    expect((refused as GrammyError).error_code).toBe(400);
  });

  it("serves a file only to a bot's own token, and only at a path it gave", async () => {
    fake = await startFakeTelegram();
    const { item: payload } = await fake.injectMedia({ kind: "photo", bytes: PHOTO });
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const file = await bot.api.getFile(payload.photo?.[0]?.file_id ?? "");
    expect((await fetch(`${fake.apiRoot}/file/bot123:wrong/${file.file_path}`)).status).toBe(401);
    expect((await fetch(`${fake.apiRoot}/file/bot${fake.token}/photos/file_999.jpg`)).status).toBe(404);
  });

  it("still sends metadata alone when no bytes are given (as before)", async () => {
    fake = await startFakeTelegram();
    const { item: payload } = await fake.injectMedia({ kind: "voice" });
    expect(payload.voice?.file_id).toMatch(/^fake-voice-/);
  });
});
