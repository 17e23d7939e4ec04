import type { CommandDefinition } from "./command-types.js";

/**
 * /model [id]: show or switch this session's model, among the models the agent allows (`models`); remembered across
 * restarts. In a group only admins switch it (checked by `runBuiltinCommand`).
 */
export const modelCommand: CommandDefinition = {
  name: "model",
  usage: "/model [id]",
  description: "show or switch this chat's model",
  adminOnly: false,
  async run({ host, sessionKey, agentId, args }) {
    const id = args[0];
    const allowed = host.knownModels(agentId).join(", ");
    if (id === undefined) {
      return `This chat uses ${await host.currentModel(sessionKey)}. Models you can switch to: ${allowed}.`;
    }
    const outcome = await host.switchModel(sessionKey, agentId, id);
    if (outcome.ok) return `This chat now uses ${outcome.model}.`;
    return `"${id}" is not a model this agent may use. Models you can switch to: ${outcome.known.join(", ")}.`;
  },
};
