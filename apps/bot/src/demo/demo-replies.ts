/** What the demo says about itself, in every answer that is not a tool result. */
export const DEMO_NOTICE =
  "_I am the offline **demo model**: I follow a fixed script, no AI is involved._ " +
  "To talk to a real model, set `ANTHROPIC_API_KEY` or `OPENAI_API_KEY` (or `OPENAI_BASE_URL` for a local " +
  "server such as Ollama) and restart, or name one in `chorus.config.yaml`.";

/** The greeting. */
export function greetingText(): string {
  return [
    "Hello! I'm **Chorus**, running on the offline demo model.",
    "",
    "Try one of these:",
    "- `help` what I can do",
    "- `what time is it?` I use the `current_time` tool",
    "- `list files` I look around my workspace with `list_dir`",
    "- `read welcome.md` I open a file with `read_file`",
    "- `research chorus` I spawn a sub-agent (then run `/agents` to see the tree)",
    "",
    DEMO_NOTICE,
  ].join("\n");
}

/** The answer to "help". */
export function helpText(): string {
  return [
    "**What this demo can do**",
    "",
    "- **Tools**: ask for the time, to list files, or to read a file (`read notes/ideas.md`).",
    "- **Sub-agents**: `research <topic>` starts a researcher sub-agent that reads the workspace and reports back.",
    "- **Commands**: `/agents` shows agents and running runs, `/status` this session, `/new` starts over, `/stop` stops a run.",
    "",
    "**Connect a real model**",
    "",
    "- Anthropic: `export ANTHROPIC_API_KEY=sk-ant-…`",
    "- OpenAI: `export OPENAI_API_KEY=sk-…`",
    "- Local (Ollama, vLLM, LM Studio): `export OPENAI_BASE_URL=http://127.0.0.1:11434/v1` and `CHORUS_MODEL=llama3.2`",
    "",
    "Then restart `npm start`. `chorus.config.example.yaml` shows every option, including Discord, Slack and Telegram.",
  ].join("\n");
}

/** The answer to anything the script does not recognise. */
export function fallbackText(said: string): string {
  const quoted = said.length > 120 ? `${said.slice(0, 117)}…` : said;
  return [
    `You said: “${quoted}”.`,
    "",
    "I only know a few tricks: `help`, `what time is it?`, `list files`, `read welcome.md`, `research <topic>`.",
    "",
    DEMO_NOTICE,
  ].join("\n");
}
