import type { StreamFn } from "@chorus/core";
import { ExtensionError } from "./extension-error.js";
import type { AgentsSection, ExtensionCommand, GatewayExtension } from "./gateway-extension.js";

const NAME = /^[a-z][a-z0-9_-]*$/;
/** `/agents` words that are its own actions, not sections. */
const AGENTS_ACTIONS = new Set(["info", "sessions", "kill"]);

/** What the gateway's extensions add, checked and gathered once at construction. */
export interface RegisteredExtensions {
  readonly extensions: readonly GatewayExtension[];
  readonly commands: readonly ExtensionCommand[];
  readonly agentsSections: readonly AgentsSection[];
}

/**
 * Checks and gathers the extensions' contributions.
 * Contract: throws `ExtensionError` for an extension without a name, a command or section name that is malformed, a
 * builtin command's name (`taken`), or registered twice; the order of the extensions is kept.
 */
export function registerExtensions(
  extensions: readonly GatewayExtension[],
  taken: readonly string[],
): RegisteredExtensions {
  const commandNames = new Map<string, string>(taken.map((name) => [name, "a builtin command"]));
  const sectionNames = new Map<string, string>();
  const commands: ExtensionCommand[] = [];
  const agentsSections: AgentsSection[] = [];
  for (const extension of extensions) {
    if (typeof extension.name !== "string" || extension.name.trim() === "") {
      throw new ExtensionError(String(extension.name), "an extension needs a name");
    }
    for (const command of extension.commands ?? []) {
      claim(extension.name, "command", command.name, commandNames);
      commands.push(command);
    }
    for (const section of extension.agentsSections ?? []) {
      if (AGENTS_ACTIONS.has(section.name)) {
        throw new ExtensionError(extension.name, `"${section.name}" is one of /agents' own actions`);
      }
      claim(extension.name, "/agents section", section.name, sectionNames);
      agentsSections.push(section);
    }
  }
  return { extensions, commands, agentsSections };
}

function claim(extension: string, kind: string, name: string, names: Map<string, string>): void {
  if (!NAME.test(name)) {
    throw new ExtensionError(extension, `${kind} name "${name}" must be lowercase letters, digits, - or _`);
  }
  const owner = names.get(name);
  if (owner !== undefined) throw new ExtensionError(extension, `${kind} "${name}" is taken by ${owner}`);
  names.set(name, `extension "${extension}"`);
}

/** The model-call chain with every extension's wrapper: the first extension given is the outermost. */
export function wrapStreamFn(registered: RegisteredExtensions, streamFn: StreamFn): StreamFn {
  let wrapped = streamFn;
  for (const extension of [...registered.extensions].reverse()) {
    if (extension.wrapStreamFn !== undefined) wrapped = extension.wrapStreamFn(wrapped);
  }
  return wrapped;
}
