import { error, type RestContext, type RestHandler } from "./rest-reply.js";

/** A guild member object for a user the fake knows. */
function memberOf(ctx: RestContext, userId: string): Record<string, unknown> | undefined {
  const { world } = ctx;
  const user =
    userId === world.human.id
      ? world.human
      : userId === world.otherBot.id
        ? world.otherBot
        : world.botByUserId(userId)?.user;
  if (!user) return undefined;
  return { user, roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0 };
}

export const getGuildMember: RestHandler = (ctx) => {
  if (ctx.world.guildById(ctx.params.guildId) === undefined) return error(404, 10004, "Unknown Guild");
  const member = memberOf(ctx, ctx.params.userId ?? "");
  return member ? { status: 200, body: member } : error(404, 10007, "Unknown Member");
};

export const getUser: RestHandler = (ctx) => {
  const member = memberOf(ctx, ctx.params.userId ?? "");
  return member ? { status: 200, body: member.user } : error(404, 10013, "Unknown User");
};
