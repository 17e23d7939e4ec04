import { randomBytes } from "node:crypto";

/** A Block Kit block as the fake stores it: the sent JSON, with `block_id` (and buttons' `action_id`) filled in. */
export type SlackBlock = Record<string, unknown> & { readonly type: string; block_id: string };

/** A button element of a stored message, with the id of the block it sits in. */
export interface SlackButtonElement {
  readonly type: "button";
  readonly action_id: string;
  readonly block_id: string;
  readonly text: { readonly type: "plain_text"; readonly text: string; readonly emoji?: boolean };
  readonly value?: string;
  readonly style?: "primary" | "danger";
  readonly url?: string;
}

/** The outcome of reading a `blocks` parameter: the blocks to store (undefined: none sent), or Slack's error. */
export type BlocksReading =
  | { readonly ok: true; readonly blocks: SlackBlock[] | undefined }
  | { readonly ok: false; readonly error: "invalid_blocks" | "invalid_blocks_format"; readonly errors: string[] };

// Slack's published Block Kit limits (the ones a chat bot can plausibly hit).
const MAX_BLOCKS = 50;
const MAX_BLOCK_ID = 255;
const MAX_SECTION_TEXT = 3000;
const MAX_FIELDS = 10;
const MAX_FIELD_TEXT = 2000;
const MAX_HEADER_TEXT = 150;
const MAX_ACTION_ELEMENTS = 25;
const MAX_CONTEXT_ELEMENTS = 10;
const MAX_BUTTON_TEXT = 75;
const MAX_ACTION_ID = 255;
const MAX_BUTTON_VALUE = 2000;
const MAX_BUTTON_URL = 3000;

// Block types accepted without a closer look: the fake checks only what the gateway sends.
const UNCHECKED_TYPES = new Set(["divider", "image", "rich_text", "markdown", "file", "video", "input"]);

type Problems = string[];

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// Slack words its errors like this: "<what is wrong> [json-pointer:/blocks/0/text/text]".
function problem(problems: Problems, pointer: string, what: string): void {
  problems.push(`${what} [json-pointer:${pointer}]`);
}

function checkTextObject(value: unknown, pointer: string, max: number, problems: Problems, plainOnly = false): void {
  const text = record(value);
  if (text === undefined) {
    problem(problems, pointer, "must provide an object");
    return;
  }
  const allowed = plainOnly ? ["plain_text"] : ["plain_text", "mrkdwn"];
  if (typeof text.type !== "string" || !allowed.includes(text.type)) {
    problem(problems, `${pointer}/type`, `must be one of ${allowed.join(", ")}`);
  }
  if (typeof text.text !== "string" || text.text.length === 0) {
    problem(problems, `${pointer}/text`, "must be at least 1 character");
  } else if (text.text.length > max) {
    problem(problems, `${pointer}/text`, `must be less than ${max + 1} characters`);
  }
}

function checkLength(value: unknown, pointer: string, max: number, problems: Problems): void {
  if (value === undefined) return;
  if (typeof value !== "string") problem(problems, pointer, "must be a string");
  else if (value.length > max) problem(problems, pointer, `must be less than ${max + 1} characters`);
}

/** Checks a button and fills in a missing action_id, as Slack does. */
function checkButton(button: Record<string, unknown>, pointer: string, problems: Problems, seen: Set<string>): void {
  checkTextObject(button.text, `${pointer}/text`, MAX_BUTTON_TEXT, problems, true);
  checkLength(button.action_id, `${pointer}/action_id`, MAX_ACTION_ID, problems);
  checkLength(button.value, `${pointer}/value`, MAX_BUTTON_VALUE, problems);
  checkLength(button.url, `${pointer}/url`, MAX_BUTTON_URL, problems);
  if (button.style !== undefined && button.style !== "primary" && button.style !== "danger") {
    problem(problems, `${pointer}/style`, "must be one of primary, danger");
  }
  if (button.action_id === undefined) button.action_id = randomBytes(3).toString("base64url");
  if (typeof button.action_id === "string") {
    if (seen.has(button.action_id)) problem(problems, `${pointer}/action_id`, "action_id must be unique");
    seen.add(button.action_id);
  }
}

function checkElements(
  elements: unknown,
  pointer: string,
  max: number,
  problems: Problems,
  check: (element: Record<string, unknown>, at: string) => void,
): void {
  if (!Array.isArray(elements) || elements.length === 0) {
    problem(problems, pointer, "must provide an array");
    return;
  }
  if (elements.length > max) problem(problems, pointer, `must be no more than ${max} items`);
  elements.forEach((element, index) => {
    const at = `${pointer}/${index}`;
    const value = record(element);
    if (value === undefined || typeof value.type !== "string") problem(problems, at, "must provide an element type");
    else check(value, at);
  });
}

function checkBlock(block: Record<string, unknown>, pointer: string, problems: Problems): void {
  const seenActionIds = new Set<string>();
  switch (block.type) {
    case "section": {
      if (block.text === undefined && block.fields === undefined) {
        problem(problems, pointer, "must provide either text or fields");
      }
      if (block.text !== undefined) checkTextObject(block.text, `${pointer}/text`, MAX_SECTION_TEXT, problems);
      if (block.fields !== undefined) {
        checkElements(block.fields, `${pointer}/fields`, MAX_FIELDS, problems, (field, at) => {
          checkTextObject(field, at, MAX_FIELD_TEXT, problems);
        });
      }
      const accessory = record(block.accessory);
      if (accessory?.type === "button") checkButton(accessory, `${pointer}/accessory`, problems, seenActionIds);
      return;
    }
    case "actions":
      checkElements(block.elements, `${pointer}/elements`, MAX_ACTION_ELEMENTS, problems, (element, at) => {
        if (element.type === "button") checkButton(element, at, problems, seenActionIds);
      });
      return;
    case "header":
      checkTextObject(block.text, `${pointer}/text`, MAX_HEADER_TEXT, problems, true);
      return;
    case "context":
      checkElements(block.elements, `${pointer}/elements`, MAX_CONTEXT_ELEMENTS, problems, () => {});
      return;
    default:
      if (!UNCHECKED_TYPES.has(String(block.type))) problem(problems, `${pointer}/type`, "unsupported type");
  }
}

/**
 * Reads a Web API `blocks` parameter (a JSON string in a form body, or an array in a JSON body) the way Slack
 * does: checks the Block Kit limits above and fills in the `block_id`s and `action_id`s the caller left out.
 * Contract: never throws; an absent parameter reads as `blocks: undefined`, an empty array as `[]`.
 */
export function readBlocks(param: unknown): BlocksReading {
  if (param === undefined) return { ok: true, blocks: undefined };
  let value: unknown = param;
  if (typeof param === "string") {
    try {
      value = JSON.parse(param) as unknown;
    } catch {
      return { ok: false, error: "invalid_blocks_format", errors: ["blocks must be a JSON array"] };
    }
  }
  if (!Array.isArray(value)) return { ok: false, error: "invalid_blocks_format", errors: ["blocks must be an array"] };
  const problems: Problems = [];
  if (value.length > MAX_BLOCKS) problem(problems, "/blocks", `must be no more than ${MAX_BLOCKS} items`);
  const blocks = value.map((item, index): SlackBlock => {
    const pointer = `/blocks/${index}`;
    const block = record(item) ?? {};
    if (typeof block.type !== "string") problem(problems, pointer, "must provide a block type");
    else checkBlock(block, pointer, problems);
    checkLength(block.block_id, `${pointer}/block_id`, MAX_BLOCK_ID, problems);
    return { ...block, type: String(block.type), block_id: stringOr(block.block_id, randomBlockId) };
  });
  return problems.length === 0 ? { ok: true, blocks } : { ok: false, error: "invalid_blocks", errors: problems };
}

/**
 * The buttons of stored blocks (in `actions` blocks and as section accessories), each with its block's id.
 * Contract: in the order they are shown.
 */
export function buttonsOf(blocks: unknown): SlackButtonElement[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((item) => {
    const block = record(item);
    if (block === undefined) return [];
    const elements = block.type === "actions" && Array.isArray(block.elements) ? block.elements : [block.accessory];
    return elements
      .map(record)
      .filter((element) => element?.type === "button")
      .map((element) => ({ ...element, block_id: String(block.block_id) }) as unknown as SlackButtonElement);
  });
}

function stringOr(value: unknown, make: () => string): string {
  return typeof value === "string" ? value : make();
}

// Slack's generated block ids are short random strings.
function randomBlockId(): string {
  return randomBytes(4).toString("base64url").slice(0, 5);
}
