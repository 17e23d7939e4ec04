import { afterEach, expect, it } from "vitest";
import {
  adminDm,
  cleanUpChildren,
  freshDbPath,
  type GatewayChild,
  startGatewayChild,
} from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const UNANSWERED_NOTICE = "I was restarted before I could answer — reply 'continue' and I will.";

function sentTo(child: GatewayChild, chatId: string): string[] {
  return child.lines.filter((line) => line.type === "sent" && line.chatId === chatId).map((line) => line.text ?? "");
}

it("tells a chat whose message was waiting for a turn slot when the gateway was killed, and answers it on 'continue'", async () => {
  const dbPath = freshDbPath();
  // One turn slot: the admin's turn holds it (the model never answers), so Bob's message waits for its turn.
  const first = await startGatewayChild({ dbPath, maxConcurrentTurns: 1 });
  first.inject(adminDm("hang", "m-1"));
  await first.waitFor((line) => line.type === "model-call" && line.text === "hang", "the admin's turn started");
  first.inject({ text: "hello?", sender: { id: "bob", name: "Bob" }, messageId: "m-2", eventId: "m-2" });
  await first.waitFor((line) => line.type === "stored" && line.eventId === "m-2", "Bob's message was stored");
  await first.kill();
  expect(first.lines.filter((line) => line.type === "model-call").map((line) => line.text)).toEqual(["hang"]);

  const second = await startGatewayChild({ dbPath });
  await second.waitFor((line) => line.type === "sent" && line.chatId === "dm-bob", "Bob was told");
  await second.waitFor((line) => line.type === "sent" && line.chatId === "dm-admin", "the admin was told");
  expect(sentTo(second, "dm-bob")).toEqual([UNANSWERED_NOTICE]);
  // The admin's turn died in its first model call, before its first commit: its message is unanswered as well.
  expect(sentTo(second, "dm-admin")).toEqual([UNANSWERED_NOTICE]);

  second.inject({ text: "continue", sender: { id: "bob", name: "Bob" }, messageId: "m-3", eventId: "m-3" });
  await second.waitFor(
    (line) => line.type === "sent" && line.chatId === "dm-bob" && (line.text ?? "").startsWith("continuing"),
    "Bob's waiting message was answered",
  );
  expect(sentTo(second, "dm-bob").at(-1)).toBe("continuing after: hello?; tool results:");
  // Killed only once every send is marked sent: an entry still in flight would (rightly) be resent after a restart.
  await expect
    .poll(() => second.lines.filter((line) => line.type === "marked-sent").length)
    .toBe(second.lines.filter((line) => line.type === "sent").length);
  await second.kill();

  // A third start finds nothing left to tell.
  const third = await startGatewayChild({ dbPath });
  await new Promise((resolve) => setTimeout(resolve, 300));
  await third.kill();
  expect(third.lines.filter((line) => line.type === "sent" || line.type === "send-attempt")).toEqual([]);
});
