import { z } from "zod";

const serverNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{1,32}$/,
    "expected a server name of letters, digits, '_' or '-' (it is part of its tools' names)",
  );
const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name");

/**
 * One MCP server of an agent (`agents[].mcpServers`): a stdio command the bot starts (in the config file's folder
 * unless `cwd` says otherwise, with only `env` and the SDK's safe variables — PATH, HOME… — in its environment), or a
 * Streamable HTTP endpoint. Its tools are `mcp__<name>__<tool>`. `env` and `headers` take `${ENV_VAR}` for secrets.
 */
export const mcpServerSchema = z.discriminatedUnion("transport", [
  z.strictObject({
    name: serverNameSchema,
    transport: z.literal("stdio"),
    command: z.string().min(1, "expected the command that starts the server"),
    args: z.array(z.string()).optional(),
    env: z.record(envNameSchema, z.string()).optional(),
    cwd: z.string().min(1).optional(),
  }),
  z.strictObject({
    name: serverNameSchema,
    transport: z.literal("http"),
    url: z
      .url({ error: "expected the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp" })
      .refine((url) => /^https?:\/\//.test(url), "expected an http:// or https:// URL"),
    headers: z.record(z.string().min(1), z.string()).optional(),
  }),
]);

/** An agent's MCP servers: their names unique (they name the tools). */
export const mcpServerListSchema = z.array(mcpServerSchema).superRefine((servers, context) => {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    if (seen.has(server.name)) {
      context.addIssue({
        code: "custom",
        path: [index, "name"],
        message: `another server is already named ${server.name}`,
      });
    }
    seen.add(server.name);
  });
});

/** One MCP server as validated. */
export type BotMcpServer = z.output<typeof mcpServerSchema>;
