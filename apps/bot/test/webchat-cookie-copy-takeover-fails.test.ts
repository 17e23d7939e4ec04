import { describe, expect, it } from "vitest";
import { browserCookies, webchatBotSuite } from "./support/webchat-bot-process.js";
import type { WebchatClient } from "./support/webchat-client.js";

// The attack (issue 23): a browser's cookie was also the sender id every other browser saw in the group, and local
// browsers were admins by that id. A guest on another machine copied the admin's id into its cookie, reconnected,
// and was the owner: /agents worked and the admin's DM history came in `hello`. 127.0.0.2 stands for the other
// machine (the bot must not treat it as local).

const SECRET_IN_DM = "my private note: the vault code is ZEBRA-7731";

const bot = webchatBotSuite("chorus-takeover-", {});
const connect = bot.connect;

/** Every string a client was ever sent, for "does it contain X anywhere". */
function everythingSeen(client: WebchatClient): string {
  return JSON.stringify(client.frames);
}

describe("the WebChat cookie-copy takeover", () => {
  it("fails: a guest that copies every id it sees into its cookie is still a guest and never sees the admin's DM", async () => {
    const url = bot.running().url;
    const adminCookie = await browserCookies(url, "127.0.0.1");
    const adminCredential = /chorus_webchat=([^;]+)/.exec(adminCookie)?.[1] ?? "";
    expect(adminCredential).toHaveLength(43);
    const admin = await connect({ cookie: adminCookie, localAddress: "127.0.0.1" });
    expect(admin.hello.admin).toBe(true);
    admin.send("dm", SECRET_IN_DM);
    await admin.until(() => admin.botTexts("dm").length > 0);
    expect(await admin.ask("dm", "/agents")).toContain("**Fleet**"); // the admin really is the owner

    const guest = await connect({ cookie: await browserCookies(url, "127.0.0.2"), localAddress: "127.0.0.2" });
    expect(guest.hello.admin).toBe(false);
    admin.send("group", "hello everyone, the admin speaking");
    await guest.until(() =>
      guest.frames.some((frame) => frame.type === "message" && frame.message.text.includes("the admin speaking")),
    );

    // Every id the guest can see: sender ids, message ids, its own ids.
    const seen = new Set<string>();
    for (const frame of guest.frames) {
      if (frame.type === "message") {
        if (frame.message.senderId !== undefined) seen.add(frame.message.senderId);
        seen.add(frame.message.id);
      }
      if (frame.type === "hello") for (const message of frame.history) if (message.senderId) seen.add(message.senderId);
    }
    const adminSenderId = guest.frames.flatMap((frame) =>
      frame.type === "message" && frame.message.text.includes("the admin speaking") ? [frame.message.senderId] : [],
    )[0];
    expect(adminSenderId).toBe(admin.hello.publicId);
    expect(seen.has(admin.hello.publicId)).toBe(true);

    for (const id of seen) {
      // The old cookie, the new one, and both at once.
      for (const cookie of [
        `chorus_browser=${id}`,
        `chorus_webchat=${id}`,
        `chorus_browser=${id}; chorus_webchat=${id}`,
      ]) {
        const forged = await connect({ cookie, localAddress: "127.0.0.2" });
        expect(forged.hello.admin).toBe(false);
        expect(forged.hello.publicId).not.toBe(admin.hello.publicId);
        expect(everythingSeen(forged)).not.toContain("ZEBRA-7731");
        await forged.close();
      }
    }

    // The copy with the admin's id, used as a user would: /agents is refused as for any guest, and nothing the
    // admin says in its DM afterwards reaches it.
    const forged = await connect({ cookie: `chorus_browser=${adminSenderId}`, localAddress: "127.0.0.2" });
    expect(await forged.ask("dm", "/agents")).toBe("You are not authorised to use /agents.");
    const answered = admin.botTexts("dm").length;
    admin.send("dm", "one more private line: ZEBRA-7731 again");
    await admin.until(() => admin.botTexts("dm").length > answered);
    forged.send("dm", "hello");
    await forged.until(() => forged.botTexts("dm").some((text) => text.includes("ANTHROPIC_API_KEY")));
    expect(everythingSeen(forged)).not.toContain("ZEBRA-7731");
    expect(everythingSeen(guest)).not.toContain("ZEBRA-7731");
    // The admin's credential itself was never sent to anyone, the admin included.
    for (const client of bot.clients()) expect(everythingSeen(client)).not.toContain(adminCredential);
  }, 60_000);
});
