import { afterEach, expect, it } from "vitest";
import { adminDm, adminFactsIn, cleanUpChildren, freshDbPath, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

it("leaves no fact when the gateway is killed with SIGKILL between the remember call and the turn's commit", async () => {
  const dbPath = freshDbPath();
  const memoryPath = `${dbPath}.memory`;
  const child = await startGatewayChild({ dbPath, memoryDbPath: memoryPath, holdRememberCommit: true });
  child.inject(adminDm("remember-then-hang: The vault code is on the fridge", "m-1"));
  // remember ran and answered; the commit that would hold its result never finishes, so the kill lands right before it.
  await child.waitFor((line) => line.type === "commit-held", "the commit holding remember's result was reached");
  await child.kill();
  expect(await adminFactsIn(memoryPath)).toEqual([]);

  // The same gateway, not killed: the fact is there once its turn is committed.
  const again = await startGatewayChild({ dbPath, memoryDbPath: memoryPath });
  again.inject(adminDm("remember: Admin's cat is called Miso", "m-2"));
  await again.waitFor((line) => line.type === "fact-written", "the fact was written");
  await again.kill();
  expect(await adminFactsIn(memoryPath)).toEqual(["Admin's cat is called Miso"]);
});
