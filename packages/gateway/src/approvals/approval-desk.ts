import { randomInt } from "node:crypto";
import type { SessionChat } from "@chorus/channel";
import type { PostOptions } from "../delivery/chat-notices.js";
import { mayAnswerRun } from "../permissions/session-change-permission.js";
import {
  type ApprovalQuestion,
  type ApprovalSettlement,
  approvalButtons,
  approvalRequestText,
  approvalSettledText,
  approvalTimedOutText,
} from "./approval-message.js";

/** The agent side of one waiting approval: how to resume the call. */
export interface ApprovalAnswerer {
  approve(approvalId: string): void;
  deny(approvalId: string, reason?: string): void;
}

/** A tool call waiting for a person, as the session runtime reports it. */
export interface ApprovalRequestInput {
  readonly approvalId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly sessionKey: string;
  readonly chat: SessionChat;
  readonly toolName: string;
  readonly args: unknown;
  readonly reason: string;
  readonly timeoutMs: number;
  /** Who asked for the run (the senders of its messages): they may answer, as may admins. */
  readonly requesterIds: readonly string[];
  readonly agent: ApprovalAnswerer;
}

/** Who answers, as the command pipeline knows them. */
export interface ApprovalAnswerBy {
  readonly channel: string;
  readonly accountId: string;
  readonly senderId: string;
  readonly senderName: string;
  readonly isAdmin: boolean;
}

/** The outcome of an answer, as a sentence for the person who answered. */
export type ApprovalAnswerOutcome =
  | { readonly kind: "approved" | "denied"; readonly text: string }
  | { readonly kind: "unknown" | "not-allowed"; readonly text: string };

/** A message the desk posted: the outbox entry it went out as, once queued (undefined if it could not be). */
export type PostedNotice = Promise<number | undefined>;

export type { PostOptions } from "../delivery/chat-notices.js";

/** What the desk needs from the gateway. */
export interface ApprovalDeskDeps {
  /** Posts a message (Markdown, optional buttons) in a session's chat; returns a handle to `replace` it later. */
  post(sessionKey: string, chat: SessionChat, text: string, options?: PostOptions): PostedNotice;
  /**
   * Replaces a posted message's text in place, without buttons. Contract: best effort — a message that was never
   * delivered, or that the platform no longer lets anyone edit, stays as it was; never throws.
   */
  replace(posted: PostedNotice, text: string): void;
  /** Whether a chat's channel shows buttons. */
  hasButtons(chat: SessionChat): boolean;
  now(): number;
}

interface Pending extends ApprovalRequestInput {
  readonly code: string;
  readonly deadline: number;
  /** The request's message, settled in place once the request ends. */
  readonly posted: PostedNotice;
}

const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/**
 * Approval requests shown in chat: when an agent's call waits for approval (`approval_required`), the desk posts
 * what it wants to run and why, with a short code (and buttons where the channel has them); `/approve <code>` or
 * `/deny <code>` from the requester or an admin resumes the call; no answer in time tells the chat it was denied.
 * However a request ends (answered, timed out, its run stopped), its message is changed in place to say so and loses
 * its buttons.
 * Contract: each request is answered at most once; a run's requests are forgotten when it ends.
 */
export class ApprovalDesk {
  readonly #deps: ApprovalDeskDeps;
  readonly #pending = new Map<string, Pending>();

  constructor(deps: ApprovalDeskDeps) {
    this.#deps = deps;
  }

  /** Requests waiting for an answer. */
  get size(): number {
    return this.#pending.size;
  }

  /** Whether a request waits here under `code` (in a cluster: whether this instance's run asked it). */
  holds(code: string): boolean {
    return this.#pending.has(code.toLowerCase());
  }

  /** Posts a request in its chat. Contract: returns the code people answer with. */
  open(request: ApprovalRequestInput): string {
    const code = this.#newCode();
    const question: ApprovalQuestion = { code, ...request };
    const buttons = this.#deps.hasButtons(request.chat);
    const posted = this.#deps.post(request.sessionKey, request.chat, approvalRequestText(question, buttons), {
      ...(buttons ? { buttons: approvalButtons(code) } : {}),
      runId: request.runId,
      settleOnRestart: approvalSettledText(question, { kind: "restarted" }),
    });
    this.#pending.set(code, { ...request, code, deadline: this.#deps.now() + request.timeoutMs, posted });
    return code;
  }

  /**
   * Answers the request under `code`. Only the person who asked (on the same channel account) or an admin may.
   * Contract: never throws; a request already answered, timed out or ended is `unknown`.
   */
  answer(code: string, approve: boolean, by: ApprovalAnswerBy): ApprovalAnswerOutcome {
    const entry = this.#pending.get(code.toLowerCase());
    if (entry === undefined) return { kind: "unknown", text: `No request is waiting under \`${code}\`.` };
    const sameAccount = entry.chat.channel === by.channel && entry.chat.accountId === by.accountId;
    if (!(sameAccount ? mayAnswerRun(by, entry.requesterIds) : by.isAdmin)) {
      return { kind: "not-allowed", text: "Only the person who asked or an admin can answer this request." };
    }
    this.#pending.delete(entry.code);
    try {
      if (approve) entry.agent.approve(entry.approvalId);
      else entry.agent.deny(entry.approvalId, `denied by ${by.senderName}`);
    } catch {
      // The agent stopped waiting meanwhile (timeout, abort).
      this.#settle(entry, { kind: "withdrawn" });
      return { kind: "unknown", text: `The request \`${code}\` is no longer waiting.` };
    }
    this.#settle(entry, { kind: approve ? "approved" : "denied", by: by.senderName });
    return approve
      ? { kind: "approved", text: `Approved: running \`${entry.toolName}\`.` }
      : { kind: "denied", text: `Denied: \`${entry.toolName}\` will not run.` };
  }

  /**
   * A tool call of a run finished. If its request was still waiting, nobody here answered it: the agent denied it
   * on its own — past the deadline that is the timeout, and the chat is told; before it, an abort (no notice).
   */
  callEnded(runId: string, toolCallId: string): void {
    for (const entry of [...this.#pending.values()]) {
      if (entry.runId !== runId || entry.toolCallId !== toolCallId) continue;
      this.#pending.delete(entry.code);
      if (this.#deps.now() >= entry.deadline) {
        this.#settle(entry, { kind: "timed-out" });
        this.#deps.post(entry.sessionKey, entry.chat, approvalTimedOutText({ ...entry }));
      } else {
        this.#settle(entry, { kind: "withdrawn" });
      }
    }
  }

  /** Forgets the requests of a run that ended (no notice: the run's own ending says enough; each message says so). */
  closeRun(runId: string): void {
    for (const entry of [...this.#pending.values()]) {
      if (entry.runId !== runId) continue;
      this.#pending.delete(entry.code);
      this.#settle(entry, { kind: "withdrawn" });
    }
  }

  #settle(entry: Pending, settlement: ApprovalSettlement): void {
    this.#deps.replace(entry.posted, approvalSettledText(entry, settlement));
  }

  #newCode(): string {
    for (;;) {
      let code = "";
      for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      if (!this.#pending.has(code)) return code;
    }
  }
}
