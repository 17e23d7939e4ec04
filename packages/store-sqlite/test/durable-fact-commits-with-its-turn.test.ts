import { afterEach, expect, it } from "vitest";
import { adminDm, adminFactsIn, cleanUpChildren, freshDbPath, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

it("writes a fact in the same transaction as its turn: none before the commit, there right after it despite SIGKILL", async () => {
  const dbPath = freshDbPath();
  const child = await startGatewayChild({ dbPath, memoryInSessionDb: true, holdRememberCommit: true });
  child.inject(adminDm("remember-then-hang: The vault code is on the fridge", "m-1"));
  // remember answered; the commit that would hold its result never finishes, so the kill lands right before it.
  await child.waitFor((line) => line.type === "commit-held", "the commit holding remember's result was reached");
  await child.kill();
  expect(await adminFactsIn(dbPath)).toEqual([]);

  const again = await startGatewayChild({ dbPath, memoryInSessionDb: true });
  again.inject(adminDm("remember: Admin's cat is called Miso", "m-2"));
  const committed = await again.waitFor((line) => line.type === "committed", "the turn with its fact was committed");
  // Killed at once: nothing runs after the commit, so the fact can only be there if the commit itself wrote it.
  await again.kill();
  expect(committed.sideWritten).toBe(true);
  expect(await adminFactsIn(dbPath)).toEqual(["Admin's cat is called Miso"]);
});
