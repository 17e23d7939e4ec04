import { describeCommandRowsWalkedByAGuest } from "@chorus/gateway-testing";
import { autonomyExtension } from "../src/index.js";

// The autonomy extension's rows of docs/security.md's command table (`commandPermissions`): a guest in a group tries
// each example (goals, `/usage`, `/schedule`); a refusal also stores no schedule.
describeCommandRowsWalkedByAGuest("goal, schedule and usage", {
  extension: autonomyExtension(),
  config: {
    agents: [{ id: "main", model: "fake-model", goals: { autonomousEnabled: true } }],
    channels: [
      {
        channel: "test",
        admins: ["owner"],
        dmPolicy: "open",
        groups: { guests: { requireMention: false, trust: "guest" } },
      },
    ],
  },
  state: async (h) => (await h.store.listSchedules()).length,
});
