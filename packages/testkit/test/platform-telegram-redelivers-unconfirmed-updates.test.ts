import { afterEach, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../src/platforms/index.js";

let fake: FakeTelegram | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function getUpdates(f: FakeTelegram, offset?: number): Promise<{ update_id: number }[]> {
  const response = await fetch(`${f.apiRoot}/bot${f.token}/getUpdates`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(offset === undefined ? { timeout: 0 } : { offset, timeout: 0 }),
  });
  return ((await response.json()) as { result: { update_id: number }[] }).result;
}

it("serves confirmed updates again, with the same update_id, after redeliver (a bot that crashed before confirming)", async () => {
  fake = await startFakeTelegram();
  await fake.injectDm({ text: "one" });
  await fake.injectDm({ text: "two" });
  const first = await getUpdates(fake);
  const ids = first.map((update) => update.update_id);
  expect(ids).toHaveLength(2);
  expect(await getUpdates(fake, ids[1]! + 1)).toEqual([]);

  expect(fake.redeliver(fake.token, 1)).toBe(1);
  expect((await getUpdates(fake)).map((update) => update.update_id)).toEqual([ids[1]]);
  // Never more than is confirmed: the second update is pending again, so only the first can come back.
  expect(fake.redeliver(fake.token, 10)).toBe(1);
  expect((await getUpdates(fake)).map((update) => update.update_id)).toEqual(ids);
});
