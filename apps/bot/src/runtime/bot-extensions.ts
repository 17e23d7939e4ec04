import { join } from "node:path";
import { autonomyExtension } from "@chorus/extension-autonomy";
import { contextExtension } from "@chorus/extension-context";
import { type AgentFiles, mediaExtension } from "@chorus/extension-media";
import { type GatewayMemoryOptions, memoryExtension } from "@chorus/extension-memory";
import { planModeExtension } from "@chorus/extension-plan-mode";
import { titlesExtension } from "@chorus/extension-titles";
import { type GatewayExtension, skillsExtension } from "@chorus/gateway";
import type { Skill } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";
import { skillDrafterExtension } from "../skill-drafts/skill-drafter-extension.js";
import { skillFoldersOf } from "./agent-skills.js";

/**
 * The gateway extensions the bot composes from its configuration: goals, schedules and budgets (first: every model call
 * of every other extension is reserved in the budgets, and `{current_goal}` is filled before any addition), long-term
 * media (inside the budgets: a call is reserved before its attachments are read; files from `<dataDir>/media`), long-term
 * memory (its recall follows the goal in the system prompt; without `memory:` only `/memory` saying it is off), each
 * agent's skills, plan mode for the agents with `planMode: true`, and each agent's context management (`context:`, and the subgoal pruning its `compaction.pruning` asks for). Then model-written session titles when `titles:` is set; last the
 * auto-skill drafter for the agents with `skillDrafter: true` (`/skilldrafts`). Contract: the same list for every start of one configuration; order is hook order.
 */
export function botExtensions(
  config: BotConfig,
  skillsByAgent: Readonly<Record<string, readonly Skill[]>>,
  memory: GatewayMemoryOptions | undefined,
  files: { readonly dataDir: string; filesOf?(agentId: string): AgentFiles | undefined } = { dataDir: config.dataDir },
): GatewayExtension[] {
  const planning = config.agents.filter((agent) => agent.planMode === true).map((agent) => agent.id);
  const drafting = config.agents.filter((agent) => agent.skillDrafter === true).map((agent) => agent.id);
  return [
    autonomyExtension(),
    mediaExtension({
      config: config.media,
      dir: join(files.dataDir, "media"),
      ...(files.filesOf === undefined ? {} : { filesOf: files.filesOf }),
    }),
    memoryExtension(memory),
    skillsExtension(skillsByAgent),
    planModeExtension({ agents: planning }),
    contextExtension({ agents: Object.fromEntries(config.agents.map((agent) => [agent.id, agent.context])) }),
    ...(config.titles === undefined ? [] : [titlesExtension(config.titles)]),
    ...(drafting.length === 0
      ? []
      : [
          skillDrafterExtension({
            agents: drafting,
            skillsDirOf: (agentId) => {
              const root = files.filesOf?.(agentId)?.root;
              return root === undefined ? undefined : skillFoldersOf(root, files.dataDir)[0];
            },
          }),
        ]),
  ];
}
