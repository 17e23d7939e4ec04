// Session titles written by a cheap model, as a gateway extension (`titlesExtension`).
export { TITLE_PROMPT, TITLE_PURPOSE } from "./model-title.js";
export { type TitlesOptions, titlesExtension } from "./titles-extension.js";
export { UnknownTitleModelError } from "./unknown-title-model.js";
