import type { GatewayExtension } from "@chorus/gateway";
import { GatewayMemory } from "./gateway-memory.js";
import type { GatewayMemoryOptions } from "./gateway-memory-options.js";
import { memoryCommand } from "./memory-command.js";
import { MEMORY_COMMAND_PERMISSIONS } from "./memory-permissions.js";
import { UserStyleModel } from "./user-model/user-style-model.js";

/**
 * Long-term memory as a gateway extension: every agent gets `remember`/`forget`/`recall` (scoped by the chat and the
 * turn's trust tier), facts recalled for a turn's input are appended to its system prompt before its first model
 * call, a `remember` is written with the commit that stores its result (inside that transaction when the memory store
 * shares the session store's database), the end-of-session extraction pass runs after a quiet spell and before `/new`
 * (its model calls reserved and booked against the session's agent, kind `memory`), and `/memory` lists, forgets,
 * exports and switches memory off per chat. Contract: memory never fails a turn — a slow or failing recall is skipped
 * and logged, a failed fact write is logged. Without options (memory not configured) it only answers `/memory` with
 * that. With `userModel: true`, the per-user model too: each person's style observed after their turns and one line
 * about the turn's sender added before its recall (`/memory style [clear]`). Give it first among the extensions, so its recall comes right after the
 * goal's part of the system prompt and it hears a turn's end before the next one starts.
 *
 * @example
 * const memory = new SqliteMemoryStore({ path: "memory.db" });
 * new Gateway({ ...options, extensions: [memoryExtension({ store: memory, extraction: { model: "small" } })] });
 */
export function memoryExtension(options: GatewayMemoryOptions | undefined): GatewayExtension {
  // Not configured: only `/memory`, saying so (with the same permission rules as when it is).
  if (options === undefined) {
    return { name: "memory", commandPermissions: MEMORY_COMMAND_PERMISSIONS, commands: [memoryCommand(undefined)] };
  }
  const memory = new GatewayMemory(options);
  const userModel =
    options.userModel === true
      ? new UserStyleModel({
          store: options.store,
          ...(options.personOf === undefined ? {} : { personOf: options.personOf }),
          ...(options.recall?.budgetMs === undefined ? {} : { budgetMs: options.recall.budgetMs }),
        })
      : undefined;
  return {
    name: "memory",
    commandPermissions: MEMORY_COMMAND_PERMISSIONS,
    commands: [memoryCommand(memory, userModel)],
    toolsFor: () => memory.tools,
    start: (context) => {
      memory.start({
        store: context.store,
        logger: context.logger,
        track: (work) => context.track(work),
        now: () => context.now(),
        streamFn: context.streamFn,
        findModel: (id) => context.findModel(id),
      });
      userModel?.start({
        logger: context.logger,
        track: (work) => context.track(work),
        now: () => context.now(),
        enabled: (sessionKey) => memory.enabled(sessionKey),
      });
    },
    beforeTurn: async (turn) => {
      const recalled = await memory.recallFor(turn);
      const style = await userModel?.lineFor(turn);
      const addition = [style, recalled].filter((part) => part !== undefined).join("\n\n");
      return addition === "" ? undefined : { systemPromptAddition: addition };
    },
    sessionTools: (sessionKey, tools) => memory.toolsFor(sessionKey, tools),
    commitWrites: (sessionKey, messages) => memory.sideWritesFor(sessionKey, messages),
    afterTurn: (turn) => {
      memory.turnEnded(turn.sessionKey, turn.answered);
      userModel?.turnEnded(turn);
    },
    sessionEnding: (session) => memory.sessionEnding(session.sessionKey),
    stopping: () => memory.stop(),
  };
}
