/** A chat command the gateway understands, registered with platforms that list commands natively. */
export interface NativeCommand {
  readonly name: string;
  readonly description: string;
  /** Whether the answer should be visible only to the person who asked, where the platform can do that. */
  readonly ephemeral: boolean;
}

/** The commands every channel registers: names without "/", descriptions under 100 characters (Discord's cap). */
export const NATIVE_COMMANDS: readonly NativeCommand[] = [
  { name: "agents", description: "Show the agent fleet and manage running sub-agents", ephemeral: true },
  { name: "status", description: "Show this conversation's session status", ephemeral: false },
  { name: "new", description: "Start a new conversation (forget this session's history)", ephemeral: false },
  { name: "stop", description: "Stop the running turn and its sub-agents", ephemeral: false },
  {
    name: "goal",
    description: "Show or set this chat's goal; create --auto, stop, pause or resume one",
    ephemeral: false,
  },
  { name: "usage", description: "Spend per agent, user and goal, today and this month (admins)", ephemeral: true },
  {
    name: "schedule",
    description: "Schedule a prompt: at, in, every or cron; list or stop schedules (admins)",
    ephemeral: false,
  },
];

/** Contract: whether `name` (without "/") is one of NATIVE_COMMANDS. */
export function isNativeCommand(name: string): boolean {
  return NATIVE_COMMANDS.some((command) => command.name === name);
}
