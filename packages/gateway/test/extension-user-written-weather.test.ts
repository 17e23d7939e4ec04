import type { StreamFn } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import type { GatewayConfigInput } from "../src/config/index.js";
import { ExtensionError, type GatewayExtension } from "../src/extension/index.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

// The example of docs/architecture.md "Extensions", as an SDK user writes it: a /weather command anyone may use, an
// admin-only /weather-key, a section of /agents with an action, a before-turn hook that tells the model what was
// looked up, and a model-call wrapper that counts calls.
function weatherExtension() {
  const lookups = new Map<string, string>(); // session → the last city looked up there
  let apiKey = "demo";
  let modelCalls = 0;
  const extension: GatewayExtension = {
    name: "weather",
    commands: [
      {
        name: "weather",
        usage: "/weather <city>",
        description: "today's weather in a city",
        adminOnly: false,
        async run({ args, sessionKey }) {
          const city = args.join(" ").trim();
          if (city === "") return "Usage: /weather <city>";
          lookups.set(sessionKey, city);
          return `Weather in ${city}: sunny, 21 °C.`;
        },
      },
      {
        name: "weather-key",
        usage: "/weather-key <key>",
        description: "set the weather service's API key (admins)",
        adminOnly: true,
        async run({ args }) {
          apiKey = args[0] ?? apiKey;
          return "Weather API key saved.";
        },
      },
    ],
    agentsSections: [
      {
        name: "weather",
        async render() {
          return {
            text: `**Weather**: ${lookups.size} chat(s) looked a city up`,
            buttons: [{ id: "/agents weather reset", label: "Reset weather" }],
          };
        },
        async act(args) {
          if (args[0] !== "reset") return "Usage: /agents weather reset";
          lookups.clear();
          return "Weather lookups forgotten.";
        },
      },
    ],
    beforeTurn({ sessionKey }) {
      const city = lookups.get(sessionKey);
      return city === undefined
        ? undefined
        : { systemPromptAddition: `The user last looked up the weather in ${city}.` };
    },
    wrapStreamFn(next: StreamFn): StreamFn {
      return (model, context, options) => {
        modelCalls += 1;
        return next(model, context, options);
      };
    },
  };
  return { extension, lookups, apiKey: () => apiKey, modelCalls: () => modelCalls };
}

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model", systemPrompt: "You are helpful." }],
  channels: [
    {
      channel: "test",
      admins: ["owner"],
      dmPolicy: "open",
      groups: { family: { requireMention: false, trust: "guest" } },
    },
  ],
};
const guest = { chatType: "group" as const, chatId: "family", sender: { id: "guest", name: "Guest" } };
const owner = { sender: { id: "owner", name: "Owner" } };

describe("a user-written extension (/weather)", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("adds a command anyone may use, listed in /help, answered without a model call", async () => {
    const weather = weatherExtension();
    h = await startHarness({ config: CONFIG, script: () => "ok", gateway: { extensions: [weather.extension] } });
    await h.send({ ...guest, text: "/weather Oslo" });
    await h.send({ ...guest, text: "/weather" });
    await h.send({ ...guest, text: "/help" });

    const [answer, usage, help] = chatTexts(h.channel, "family");
    expect(answer).toBe("Weather in Oslo: sunny, 21 °C.");
    expect(usage).toBe("Usage: /weather <city>");
    expect(help).toContain("`/weather <city>`: today's weather in a city");
    // An admin-only command is not offered to a guest.
    expect(help).not.toContain("/weather-key");
    expect(weather.modelCalls()).toBe(0);
  });

  it("tells the model what was looked up before its turn, through the model-call wrapper", async () => {
    const weather = weatherExtension();
    h = await startHarness({
      config: CONFIG,
      script: () => "Take an umbrella anyway.",
      gateway: { extensions: [weather.extension] },
    });
    await h.send({ text: "/weather Bergen" });
    await h.send({ text: "Should I go for a walk?" });

    expect(chatTexts(h.channel, "dm-user-1").at(-1)).toBe("Take an umbrella anyway.");
    const call = h.streamFn.calls.at(-1);
    expect(call?.context.systemPrompt).toContain("You are helpful.");
    expect(call?.context.systemPrompt).toContain("The user last looked up the weather in Bergen.");
    expect(weather.modelCalls()).toBe(h.streamFn.calls.length);
  });

  it("shows its section in /agents for an admin, with a button whose action it answers", async () => {
    const weather = weatherExtension();
    h = await startHarness({ config: CONFIG, script: () => "ok", gateway: { extensions: [weather.extension] } });
    await h.send({ ...guest, text: "/weather Oslo" });
    await h.send({ ...owner, text: "/agents" });
    const fleet = h.channel.calls
      .flatMap((call) => (call.op === "send" && call.target.chatId === "dm-owner" ? [call.outbound] : []))
      .at(-1);
    expect(fleet?.text).toContain("1 chat(s) looked a city up");
    expect(fleet?.buttons).toContainEqual({ id: "/agents weather reset", label: "Reset weather" });

    await h.send({ ...owner, text: "/agents weather reset" });
    expect(chatTexts(h.channel, "dm-owner").at(-1)).toBe("Weather lookups forgotten.");
    expect(weather.lookups.size).toBe(0);
  });

  it("a guest in a group is refused its admin-only command, the /agents section and its action; nothing changes", async () => {
    const weather = weatherExtension();
    h = await startHarness({ config: CONFIG, script: () => "ok", gateway: { extensions: [weather.extension] } });
    await h.send({ ...guest, text: "/weather Oslo" });
    await h.send({ ...guest, text: "/weather-key stolen" });
    await h.send({ ...guest, text: "/agents" });
    await h.send({ ...guest, text: "/agents weather reset" });

    expect(chatTexts(h.channel, "family").slice(1)).toEqual([
      "You are not authorised to use /weather-key.",
      "You are not authorised to use /agents.",
      "You are not authorised to use /agents.",
    ]);
    expect(weather.apiKey()).toBe("demo");
    expect(weather.lookups.size).toBe(1);
  });

  it("contains its failures: a throwing hook, command and section never lose the message or stop the gateway", async () => {
    const broken: GatewayExtension = {
      name: "broken",
      commands: [
        {
          name: "explode",
          usage: "/explode",
          description: "fails",
          adminOnly: false,
          run: async () => {
            throw new Error("secret detail");
          },
        },
      ],
      agentsSections: [
        {
          name: "broken",
          render: async () => {
            throw new Error("no data");
          },
        },
      ],
      beforeTurn: () => {
        throw new Error("hook down");
      },
      afterTurn: async () => {
        throw new Error("after down");
      },
    };
    h = await startHarness({ config: CONFIG, script: () => "still answered", gateway: { extensions: [broken] } });
    await h.send({ text: "hello" });
    await h.send({ text: "/explode" });
    await h.send({ ...owner, text: "/agents" });
    await h.send({ text: "and again" });

    const dm = chatTexts(h.channel, "dm-user-1");
    expect(dm[0]).toBe("still answered");
    expect(dm[1]).toMatch(/\/explode/);
    expect(dm[1]).not.toContain("secret detail");
    expect(dm[2]).toBe("still answered");
    const fleet = chatTexts(h.channel, "dm-owner").at(-1);
    expect(fleet).toContain("Fleet");
    expect(fleet).toContain("The broken section could not be shown.");
  });

  it("is refused at construction when it takes a builtin's name or registers a name twice", async () => {
    const taking = (name: string): GatewayExtension => ({
      name: "taker",
      commands: [{ name, usage: `/${name}`, description: "x", adminOnly: false, run: async () => "x" }],
    });
    await expect(startHarness({ gateway: { extensions: [taking("status")] } })).rejects.toThrow(ExtensionError);
    await expect(startHarness({ gateway: { extensions: [taking("weather"), taking("weather")] } })).rejects.toThrow(
      /command "weather" is taken by extension "taker"/,
    );
    await expect(startHarness({ gateway: { extensions: [taking("Bad Name")] } })).rejects.toThrow(/must be lowercase/);
    const section: GatewayExtension = { name: "s", agentsSections: [{ name: "kill", render: async () => "" }] };
    await expect(startHarness({ gateway: { extensions: [section] } })).rejects.toThrow(/one of \/agents' own actions/);
    h = await startHarness();
  });
});
