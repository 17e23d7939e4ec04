import type { CommandDefinition } from "./command-types.js";

/** /model [id]: show or switch this session's model; remembered across restarts. */
export const modelCommand: CommandDefinition = {
  name: "model",
  usage: "/model [id]",
  description: "show or switch this chat's model",
  adminOnly: false,
  async run({ host, sessionKey, args }) {
    const id = args[0];
    if (id === undefined) {
      return `This chat uses ${await host.currentModel(sessionKey)}. Known models: ${host.knownModels().join(", ")}.`;
    }
    const outcome = await host.switchModel(sessionKey, id);
    if (outcome.ok) return `This chat now uses ${outcome.model}.`;
    return `Unknown model "${id}". Known models: ${outcome.known.join(", ")}.`;
  },
};
