import type { QueueMode } from "@chorus/store";
import type { ApprovalAnswerBy } from "../approvals/approval-desk.js";
import type { ExtensionCommandContext, OwnerCall } from "../extension/index.js";
import type { SessionActor, StopBy } from "../permissions/session-change-permission.js";

/** What one instance asks the others; the one holding the run or owning the session answers. */
export type ClusterRequest =
  | { readonly op: "kill"; readonly runId: string }
  /** `by`: who typed it (how much they may stop is decided where they typed it); absent for the gateway's own. */
  | { readonly op: "stop"; readonly sessionKey: string; readonly by?: StopBy }
  | { readonly op: "status"; readonly sessionKey: string }
  | { readonly op: "new"; readonly sessionKey: string; readonly by?: SessionActor }
  | { readonly op: "model"; readonly sessionKey: string; readonly modelId: string }
  | { readonly op: "queue"; readonly sessionKey: string; readonly mode: QueueMode }
  | { readonly op: "compact"; readonly sessionKey: string }
  /** An extension's `atOwner` command (e.g. `/plan …`: plan mode and a waiting plan live in the owner's memory). */
  | {
      readonly op: "extension";
      readonly sessionKey: string;
      readonly name: string;
      readonly context: ExtensionCommandContext;
    }
  /** An extension's call at the session's owner (`ExtensionStartContext.atOwner`, e.g. an autonomous goal's control). */
  | { readonly op: "extension-call"; readonly sessionKey: string; readonly extension: string; readonly call: OwnerCall }
  /** An answer to a tool call waiting for approval: for the instance whose run asked (it holds the code). */
  | { readonly op: "approval"; readonly code: string; readonly approve: boolean; readonly by: ApprovalAnswerBy };
