import { expect, it } from "vitest";
import { ChannelError, EditBudget } from "../src/index.js";

const RATE = { edits: 2, perMs: 1000 };

it("refuses the edit past the budget with the wait until the window frees up", () => {
  const clock = { now: 0 };
  const budget = new EditBudget(RATE, () => clock.now);
  budget.take("chat-1");
  clock.now = 400;
  budget.take("chat-1");
  clock.now = 600;
  let refused: unknown;
  try {
    budget.take("chat-1");
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(ChannelError);
  expect(refused).toMatchObject({ kind: "rate-limited", retryAfterMs: 400 });
  budget.take("chat-2"); // another chat has its own budget
  clock.now = 1000;
  budget.take("chat-1"); // the first edit left the window
});

it("keeps only chats edited within the window once many chats have come and gone", () => {
  const clock = { now: 0 };
  const budget = new EditBudget(RATE, () => clock.now);
  // A bot that edits a preview in 100 000 different chats over time, one chat per 10 ms.
  for (let chat = 0; chat < 100_000; chat++) {
    clock.now = chat * 10;
    budget.take(`chat-${chat}`);
  }
  // Only the last second's chats (100 of them) are live; between sweeps the map holds at most about twice the floor.
  expect(budget.size).toBeLessThanOrEqual(2048);
  // A chat still inside its window keeps its budget across sweeps.
  budget.take("chat-99999");
  expect(() => budget.take("chat-99999")).toThrow(/edit budget/);
});
