import { asRecord } from "../shared/request-body.js";
import { error, type RestReply } from "./rest-reply.js";

/** Discord's limits on a message's action rows and buttons (documented under "Component Reference"). */
const MAX_ROWS = 5;
const MAX_BUTTONS_PER_ROW = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;
const ACTION_ROW = 1;
const BUTTON = 2;
/** Link (5) and premium (6) buttons carry a url or sku instead of a custom_id. */
const STYLES_WITHOUT_CUSTOM_ID = new Set([5, 6]);

type FieldErrors = { _errors: Array<{ code: string; message: string }> };
/** Discord's nested form errors: `{ components: { "0": { components: { "1": { custom_id: { _errors } } } } } }`. */
type FormErrors = { [key: string]: FormErrors | FieldErrors };

const tooLong = (max: number): FieldErrors => ({
  _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${max} or fewer in length.` }],
});
const badCount = (max: number): FieldErrors => ({
  _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: `Must be between 1 and ${max} in length.` }],
});
const required: FieldErrors = { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] };
const duplicated: FieldErrors = {
  _errors: [{ code: "COMPONENT_CUSTOM_ID_DUPLICATED", message: "Component custom id cannot be duplicated" }],
};

/** The errors of one button, keyed by field; undefined when it is valid. */
function buttonErrors(button: Record<string, unknown>, seen: Set<string>): FormErrors | undefined {
  const errors: FormErrors = {};
  const customId = button.custom_id;
  if (typeof customId === "string") {
    if (customId.length > MAX_CUSTOM_ID) errors.custom_id = tooLong(MAX_CUSTOM_ID);
    else if (seen.has(customId)) errors.custom_id = duplicated;
    seen.add(customId);
  } else if (!STYLES_WITHOUT_CUSTOM_ID.has(Number(button.style))) {
    errors.custom_id = required;
  }
  if (typeof button.label === "string" && button.label.length > MAX_LABEL) errors.label = tooLong(MAX_LABEL);
  return Object.keys(errors).length === 0 ? undefined : errors;
}

/** The errors of one action row; undefined when it is valid. Rows of other component types are not checked. */
function rowErrors(row: Record<string, unknown>, seen: Set<string>): FormErrors | undefined {
  if (row.type !== ACTION_ROW) return undefined;
  const children = Array.isArray(row.components) ? row.components : [];
  if (children.length === 0 || children.length > MAX_BUTTONS_PER_ROW) {
    return { components: badCount(MAX_BUTTONS_PER_ROW) };
  }
  const errors: FormErrors = {};
  children.forEach((child, index) => {
    const component = asRecord(child);
    const invalid = component.type === BUTTON ? buttonErrors(component, seen) : undefined;
    if (invalid) errors[String(index)] = invalid;
  });
  return Object.keys(errors).length === 0 ? undefined : { components: errors };
}

/**
 * Discord's checks on a message body's `components` (action rows of buttons): at most 5 rows of 1–5 buttons, each
 * custom_id present (except link/premium buttons), unique and at most 100 characters, each label at most 80.
 * Contract: undefined when the body has no components or they are valid; otherwise a 400 with code 50035 and the
 * nested `errors` Discord returns (under `under`, e.g. "data" for an interaction callback), so a client sees the
 * failure it would see on Discord.
 */
export function validateComponents(body: Record<string, unknown>, under?: string): RestReply | undefined {
  if (!Array.isArray(body.components)) return undefined;
  const rows = body.components as unknown[];
  const invalid = (components: FormErrors | FieldErrors): RestReply =>
    error(400, 50035, "Invalid Form Body", under === undefined ? { components } : { [under]: { components } });
  if (rows.length > MAX_ROWS) return invalid(tooLong(MAX_ROWS));
  const seen = new Set<string>();
  const errors: FormErrors = {};
  rows.forEach((row, index) => {
    const rowInvalid = rowErrors(asRecord(row), seen);
    if (rowInvalid) errors[String(index)] = rowInvalid;
  });
  return Object.keys(errors).length === 0 ? undefined : invalid(errors);
}
