import type { PreDispatchPolicy } from "@chorus/core";

/** What a core pre-dispatch policy is called with: the policy context plus the call, tool and arguments. */
export type DispatchRequest = Parameters<PreDispatchPolicy>[0];
