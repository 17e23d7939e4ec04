import type { OutboundButton } from "../channel/channel-types.js";
import type { SessionChat } from "../channel/session-chat.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import type { SessionStore } from "../store/session-store.js";
import { PlanModeSessions } from "./plan-mode-sessions.js";

/** What the gateway lends plan mode to show a plan in a session's chat. */
export interface PlanModeDeps {
  store: SessionStore;
  post(sessionKey: string, chat: SessionChat, text: string, options?: { buttons?: readonly OutboundButton[] }): unknown;
  hasButtons(chat: SessionChat): boolean;
}

/** How to answer a plan where the chat has no buttons (WebChat, a terminal): by typing. */
const TYPED_ANSWER =
  "To approve it, send `/plan approve`. To reject it, send `/plan reject <what to change>` (the agent then proposes a new plan).";

/** Plan mode whose plans go to the session's chat, with buttons where its channel has them, else how to type. */
export function planModeForGateway(deps: PlanModeDeps): PlanModeSessions {
  return new PlanModeSessions(async (sessionKey, text, buttons) => {
    const session = await deps.store.getSession(sessionKey);
    if (session === undefined) return;
    const chat = sessionChatOf(session);
    if (deps.hasButtons(chat)) {
      deps.post(sessionKey, chat, `${text}\n\nApprove it, or reject it with \`/plan reject <what to change>\`.`, {
        buttons,
      });
    } else {
      deps.post(sessionKey, chat, `${text}\n\n${TYPED_ANSWER}`);
    }
  });
}
