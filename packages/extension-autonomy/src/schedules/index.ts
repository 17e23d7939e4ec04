export {
  type NewScheduleRequest,
  parseScheduleArgs,
  SCHEDULE_USAGE,
  type ScheduleRequest,
} from "./schedule-command-args.js";
export { renderSchedules } from "./schedule-fleet.js";
export {
  cronProblem,
  describeSpec,
  isKnownTimeZone,
  nextRunOf,
  runsDueBetween,
  type ScheduleData,
  type ScheduleSpec,
} from "./schedule-spec.js";
export { type ScheduleCaller, type ScheduleEntry, Scheduler } from "./scheduler.js";
