export { convertMarkdown } from "./convert-markdown.js";
export { escapeDiscordText } from "./discord-markdown.js";
export { escapeSlackText } from "./slack-mrkdwn.js";
export { escapeTelegramHtml } from "./telegram-html.js";
