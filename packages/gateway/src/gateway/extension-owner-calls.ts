import type { ExtensionStartContext, OwnerCall } from "../extension/index.js";
import { commandAtOwner } from "./command-at-owner.js";
import type { GatewayContext } from "./gateway-context.js";

/** Answers an extension's call here (its `answerAtOwner`). Contract: an unknown extension or call is a sentence. */
export async function answerExtensionCall(
  ctx: GatewayContext,
  extensionName: string,
  call: OwnerCall,
): Promise<unknown> {
  const extension = ctx.extensions.extensions.find((candidate) => candidate.name === extensionName);
  if (extension?.answerAtOwner === undefined) {
    return { told: `The instance running this chat has no extension "${extensionName}" to carry out "${call.name}".` };
  }
  return { answer: await extension.answerAtOwner(call) };
}

/** An extension's `atOwner`: its call runs where the session's turns run (see `commandAtOwner`). */
export function extensionAtOwner(ctx: () => GatewayContext, extensionName: string): ExtensionStartContext["atOwner"] {
  return (sessionKey, call) =>
    commandAtOwner(
      ctx(),
      { op: "extension-call", sessionKey, extension: extensionName, call },
      () => answerExtensionCall(ctx(), extensionName, call) as Promise<{ answer: unknown } | { told: string }>,
      (text) => ({ told: text }),
    );
}
