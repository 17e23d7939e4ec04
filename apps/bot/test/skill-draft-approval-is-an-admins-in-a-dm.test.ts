import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Harness } from "@chorus/gateway-testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, GUEST, startDrafterGateway, tempSkillsDir } from "./support/skill-drafter-gateway.js";

// A drafted skill is never loaded until an admin approves it in a DM; approval moves it into the agent's skills,
// which the next start loads. Names are skill names, never paths.

const NAME = "deploy-kubernetes-staging";
const DEPLOY = [
  "Deploy the staging branch to Kubernetes",
  "deploy staging branch, kubernetes",
  "kubernetes deploy staging branch",
];

let dir: Awaited<ReturnType<typeof tempSkillsDir>>;
let h: Harness | undefined;
beforeEach(async () => {
  dir = await tempSkillsDir();
  h = await startDrafterGateway({ skillsDir: dir.skillsDir });
  for (const text of DEPLOY) await h.send({ text, sender: ADMIN });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await dir.remove();
});

const pending = () => readdir(join(dir.skillsDir, ".pending")).catch(() => []);
const lastDmReply = (gateway: Harness, who: string) => gateway.channel.transcript(`dm-${who}`).at(-1) ?? "";

describe("approving a drafted skill", () => {
  it("is refused to a guest, and to an admin outside a DM", async () => {
    const gateway = h as Harness;
    await gateway.send({ text: `/skilldrafts approve ${NAME}`, sender: GUEST });
    expect(lastDmReply(gateway, "guest")).toBe("You are not authorised to use /skilldrafts.");
    await gateway.send({ text: "/skilldrafts", sender: GUEST });
    expect(lastDmReply(gateway, "guest")).toBe("You are not authorised to use /skilldrafts.");

    await gateway.send({ text: `/skilldrafts approve ${NAME}`, sender: ADMIN, chatType: "group", mentionsBot: true });
    expect(gateway.channel.transcript("group-1").join("\n")).toContain("in a direct message");
    expect(await pending()).toEqual([NAME]);
  });

  it("refuses a name that is a path, touching nothing", async () => {
    const gateway = h as Harness;
    for (const name of ["../skills", "../../etc", `.pending/${NAME}`, `../.pending/${NAME}`, ".pending"]) {
      await gateway.send({ text: `/skilldrafts approve ${name}`, sender: ADMIN });
      expect(lastDmReply(gateway, "admin")).toContain("is not a skill name");
    }
    await gateway.send({ text: "/skilldrafts reject ../..", sender: ADMIN });
    expect(lastDmReply(gateway, "admin")).toContain("is not a skill name");
    await gateway.send({ text: "/skilldrafts approve no-such-draft", sender: ADMIN });
    expect(lastDmReply(gateway, "admin")).toContain("No draft named");
    expect(await pending()).toEqual([NAME]);
    expect((await readdir(dir.skillsDir)).sort()).toEqual([".pending"]);
  });

  it("by an admin in a DM moves it into the agent's skills, which the next start loads", async () => {
    const gateway = h as Harness;
    await gateway.send({ text: "/skilldrafts", sender: ADMIN });
    expect(lastDmReply(gateway, "admin")).toContain(`**${NAME}**: Drafted from three successful turns like:`);
    await gateway.send({ text: `/skilldrafts approve ${NAME}`, sender: ADMIN });
    expect(lastDmReply(gateway, "admin")).toContain(`Approved **${NAME}**`);
    expect(await pending()).toEqual([]);
    await gateway.close();

    h = await startDrafterGateway({ skillsDir: dir.skillsDir });
    await h.send({ text: "/skills", sender: ADMIN });
    expect(lastDmReply(h, "admin")).toContain(`**${NAME}**`);
    await h.send({ text: "deploy please", sender: ADMIN });
    expect(h.streamFn.calls.at(-1)?.context.systemPrompt).toContain(NAME);
  });

  it("is not the only answer: an admin's /skilldrafts reject in a DM deletes the draft", async () => {
    const gateway = h as Harness;
    await gateway.send({ text: `/skilldrafts reject ${NAME}`, sender: ADMIN });
    expect(lastDmReply(gateway, "admin")).toContain(`Rejected **${NAME}**`);
    expect(await pending()).toEqual([]);
    await gateway.send({ text: "/skilldrafts", sender: ADMIN });
    expect(lastDmReply(gateway, "admin")).toBe("No skill drafts wait for review.");
  });
});
