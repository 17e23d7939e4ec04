export type { ChannelAccountOptions } from "./channel-account-options.js";
export { ChannelOptionsError } from "./channel-options-error.js";
export { ClientSlot, type ToChannelError } from "./client-slot.js";
export { inboundDelivery } from "./deliver-inbound.js";
export { EditBudget } from "./edit-budget.js";
export { ingressUnitName } from "./ingress-unit-name.js";
export { isNativeCommand, NATIVE_COMMANDS, type NativeCommand } from "./native-commands.js";
export { requireOption } from "./require-option.js";
export { stripLeadingMention } from "./strip-leading-mention.js";
