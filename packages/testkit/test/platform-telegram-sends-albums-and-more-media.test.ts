import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

// Issue #32: the fake Telegram sends albums as Telegram does (one message per item, sharing a media_group_id), and
// audio, video and animated or video stickers, so a channel's handling of each is tested against it.

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]);

describe("media the fake Telegram sends", () => {
  it("an album is one message per item, sharing a media_group_id, each item's file served", async () => {
    fake = await startFakeTelegram();
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    const items = await fake.injectAlbum({
      items: [
        { kind: "photo", bytes: JPEG, caption: "two things" },
        { kind: "video", bytes: MP4 },
      ],
    });
    expect(items.every((delivery) => delivery.ok)).toBe(true);
    const [photo, video] = items.map((delivery) => delivery.item);
    expect(photo?.media_group_id).toBeDefined();
    expect(video?.media_group_id).toBe(photo?.media_group_id);
    expect([photo?.caption, video?.caption]).toEqual(["two things", undefined]);
    expect((video?.message_id ?? 0) - (photo?.message_id ?? 0)).toBe(1);
    const updates = await bot.api.getUpdates({ timeout: 0 });
    expect(updates.map((u) => u.message?.message_id)).toEqual([photo?.message_id, video?.message_id]);
    const file = await bot.api.getFile(video?.video?.file_id ?? "");
    const response = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(MP4);

    const single = await fake.injectMedia({ kind: "photo", bytes: JPEG, mediaGroupId: "given-group" });
    expect(single.item.media_group_id).toBe("given-group");
  });

  it("audio and video carry their types; stickers say whether they are animated or video", async () => {
    fake = await startFakeTelegram();
    const audio = await fake.injectMedia({ kind: "audio", bytes: MP4, fileName: "song.mp3" });
    expect(audio.item.audio).toMatchObject({
      file_name: "song.mp3",
      mime_type: "audio/mpeg",
      file_size: MP4.byteLength,
    });
    const video = await fake.injectMedia({ kind: "video", bytes: MP4 });
    expect(video.item.video).toMatchObject({ mime_type: "video/mp4", file_size: MP4.byteLength });
    const still = await fake.injectMedia({ kind: "sticker" });
    expect(still.item.sticker).toMatchObject({ is_animated: false, is_video: false });
    const animated = await fake.injectMedia({ kind: "sticker", stickerFormat: "animated" });
    expect(animated.item.sticker).toMatchObject({ is_animated: true, is_video: false });
    const moving = await fake.injectMedia({ kind: "sticker", stickerFormat: "video" });
    expect(moving.item.sticker).toMatchObject({ is_animated: false, is_video: true });
  });
});
