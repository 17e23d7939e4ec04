import type { FakeSlack, SlackUser } from "@chorus/testkit";

/** `count` people who DM the bot on the fake Slack (`U0PERSON0<i>`, `person<i>`). */
export function slackPeople(count: number): SlackUser[] {
  return Array.from({ length: count }, (_, i) => ({ id: `U0PERSON0${i}`, name: `person${i}`, isBot: false }));
}

/** What the bot said in its DM with `user`, in order. */
export function botAnswersTo(slack: FakeSlack, user: SlackUser): string[] {
  return slack
    .conversation(slack.dmChannel(undefined, user))
    .filter((message) => message.bot_id !== undefined)
    .map((message) => message.text ?? "");
}
