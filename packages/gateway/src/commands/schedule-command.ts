import { parseScheduleArgs, SCHEDULE_USAGE } from "../schedules/schedule-command-args.js";
import { renderSchedules } from "../schedules/schedule-fleet.js";
import type { CommandDefinition } from "./command-types.js";

/** /schedule (admins): run a prompt at a time, every so often or by cron; list and stop schedules. */
export const scheduleCommand: CommandDefinition = {
  name: "schedule",
  usage: SCHEDULE_USAGE,
  description: "run a prompt later, every so often or by cron (admins)",
  adminOnly: true,
  async run({ host, args, sessionKey, agentId, message }) {
    const request = parseScheduleArgs(args, host.now());
    switch (request.kind) {
      case "refused":
        return request.message;
      case "list":
        return renderSchedules(await host.schedules()).join("\n");
      case "stop":
        return host.stopSchedule(request.id);
      case "create":
        return host.createSchedule(request, { sessionKey, agentId, senderId: message.sender.id });
    }
  },
};
