import { describeCommandRowsWalkedByAGuest } from "@chorus/gateway-testing";
import { planModeExtension } from "../src/index.js";

// Plan mode's rows of docs/security.md's command table (`commandPermissions`): a guest in a group tries each example.
describeCommandRowsWalkedByAGuest("/plan", { extension: planModeExtension({ agents: ["main"] }) });
