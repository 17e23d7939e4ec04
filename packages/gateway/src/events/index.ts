export {
  type EventStream,
  type EventSubscription,
  GatewayEventBus,
  type GatewayEventBusOptions,
  type SubscribeOptions,
} from "./gateway-event-bus.js";
export type { BusDelivery, DroppedNotice, GatewayEvent, GatewayEventType, RunOutcome } from "./gateway-events.js";
