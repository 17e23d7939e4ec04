// `@chorus/channel`: what a platform adapter builds on and the gateway speaks to — the Channel contract (inbound and
// outbound messages, errors, capabilities), the kit every adapter shares (options, client slot, edit budget, mention
// stripping, native commands, inbound delivery), and how a reply is shown on a platform (Markdown to its markup, split
// at its limits).
export * from "./channel/index.js";
export * from "./channel-kit/index.js";
export * from "./markup/index.js";
export * from "./replies/index.js";
