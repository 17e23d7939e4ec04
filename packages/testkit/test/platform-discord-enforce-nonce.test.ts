import { afterEach, expect, it } from "vitest";
import { type FakeDiscord, startFakeDiscord } from "../src/platforms/index.js";

let fake: FakeDiscord | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function createMessage(f: FakeDiscord, channelId: string, body: object): Promise<{ id: string }> {
  const response = await fetch(`${f.restApi}/v10/channels/${channelId}/messages`, {
    method: "POST",
    headers: { authorization: `Bot ${f.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string };
}

it("returns the earlier message for a repeated nonce with enforce_nonce, and posts again without it", async () => {
  fake = await startFakeDiscord();
  const dm = fake.dmChannel().id;
  const first = await createMessage(fake, dm, { content: "once", nonce: "outbox:1:0", enforce_nonce: true });
  const repeat = await createMessage(fake, dm, { content: "once again", nonce: "outbox:1:0", enforce_nonce: true });
  const unenforced = await createMessage(fake, dm, { content: "twice", nonce: "outbox:1:0" });

  expect(repeat.id).toBe(first.id);
  expect(unenforced.id).not.toBe(first.id);
  expect(fake.conversation(dm).map((m) => m.content)).toEqual(["once", "twice"]);
});
