// Chorus WebChat: one WebSocket, two rooms (your DM with the bot, and the shared group), Markdown replies
// streamed by edits, and live activity (tool calls, sub-agents) under the conversation.
const log = document.getElementById("log");
const empty = document.getElementById("empty");
const input = document.getElementById("input");
const form = document.getElementById("composer");
const sendButton = document.getElementById("send");
const statusEl = document.getElementById("status");
const identityEl = document.getElementById("identity");

const state = { room: "dm", me: null, socket: null, retryMs: 500 };
const rooms = { dm: { items: [], unread: false }, group: { items: [], unread: false } };
const messageEls = new Map(); // message id → element
const runPanels = { dm: null, group: null }; // the activity panel of the running turn, per room

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function inline(text) {
  const codes = [];
  let out = escapeHtml(text).replace(/`([^`]+)`/g, (_m, code) => {
    codes.push(code);
    return `\uE000${codes.length - 1}\uE000`;
  });
  out = out
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(])_([^_]+)_(?=$|[\s).,!?:;])/g, "$1<em>$2</em>")
    .replace(/(^|[\s(])\*([^*]+)\*(?=$|[\s).,!?:;])/g, "$1<em>$2</em>")
    .replace(/~~([^~]+)~~/g, "<s>$1</s>")
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>');
  return out.replace(/\uE000(\d+)\uE000/g, (_m, i) => `<code>${codes[Number(i)]}</code>`);
}

/** A small, safe Markdown renderer: everything is escaped first; only known constructs become tags. */
function renderMarkdown(markdown) {
  const lines = markdown.split("\n");
  const html = [];
  let paragraph = [];
  let list = null;
  const flush = () => {
    if (paragraph.length) html.push(`<p>${paragraph.map(inline).join("<br>")}</p>`);
    paragraph = [];
    if (list) html.push(`<ul>${list.map((item) => `<li>${inline(item)}</li>`).join("")}</ul>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      flush();
      const code = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) code.push(lines[i]);
      html.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*+]|\d+\.)\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      html.push(`<h3>${inline(heading[1])}</h3>`);
    } else if (item) {
      if (paragraph.length) {
        html.push(`<p>${paragraph.map(inline).join("<br>")}</p>`);
        paragraph = [];
      }
      list = list ?? [];
      list.push(item[1]);
    } else if (line.trim() === "") {
      flush();
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return html.join("");
}

function scrollToEnd() {
  log.scrollTop = log.scrollHeight;
}

function show(room, element) {
  rooms[room].items.push(element);
  if (room === state.room) {
    empty.hidden = true;
    log.append(element);
    scrollToEnd();
  } else {
    rooms[room].unread = true;
    renderTabs();
  }
}

function removeTyping(room) {
  for (const el of rooms[room].items.filter((e) => e.classList.contains("typing"))) {
    el.remove();
    rooms[room].items.splice(rooms[room].items.indexOf(el), 1);
  }
}

function addMessage(message) {
  removeTyping(message.room);
  // Messages loaded from the store carry the sender's name only (the group transcript keeps names, not ids).
  const mine =
    message.role === "user" &&
    state.me &&
    (message.senderId ? message.senderId === state.me.publicId : message.senderName === state.me.name);
  const el = document.createElement("div");
  el.className = `msg ${message.role}${message.role === "user" && !mine ? " other" : ""}`;
  el.dataset.id = message.id;
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.textContent = message.role === "bot" ? "Chorus" : mine ? "You" : message.senderName;
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  setText(bubble, message);
  el.append(meta, bubble);
  messageEls.set(message.id, { el, bubble, role: message.role });
  show(message.room, el);
}

function setText(bubble, message) {
  if (message.role === "bot") bubble.innerHTML = renderMarkdown(message.text);
  else bubble.textContent = message.text;
}

function editMessage(frame) {
  const entry = messageEls.get(frame.id);
  if (!entry) return;
  setText(entry.bubble, { role: entry.role, text: frame.text });
  if (frame.room === state.room) scrollToEnd();
}

function deleteMessage(frame) {
  const entry = messageEls.get(frame.id);
  if (!entry) return;
  entry.el.remove();
  messageEls.delete(frame.id);
  const items = rooms[frame.room].items;
  const index = items.indexOf(entry.el);
  if (index >= 0) items.splice(index, 1);
}

const typingTimers = { dm: 0, group: 0 };

// Like the platforms' own indicator, typing lasts a few seconds unless renewed, and ends with a reply or the run.
function showTyping(room) {
  clearTimeout(typingTimers[room]);
  typingTimers[room] = setTimeout(() => removeTyping(room), 6000);
  if (rooms[room].items.some((e) => e.classList.contains("typing"))) return;
  const el = document.createElement("div");
  el.className = "typing";
  el.innerHTML = "Chorus is typing <span>●</span><span>●</span><span>●</span>";
  show(room, el);
}

function activityPanel(room) {
  if (!runPanels[room]) {
    const panel = document.createElement("div");
    panel.className = "activity";
    runPanels[room] = panel;
    show(room, panel);
  }
  return runPanels[room];
}

function addActivity(room, activity) {
  if (activity.kind === "run_started") {
    if (activity.depth === 0) runPanels[room] = null;
    return;
  }
  if (activity.kind === "run_ended") {
    if (activity.depth === 0) {
      runPanels[room] = null;
      removeTyping(room);
    }
    if (!activity.ok && activity.depth === 0) {
      const el = document.createElement("div");
      el.className = "notice";
      el.textContent = `Run ${activity.label}`;
      show(room, el);
    }
    return;
  }
  const panel = activityPanel(room);
  if (activity.kind === "tool_end" || activity.kind === "subagent_completed") {
    const kind = activity.kind === "tool_end" ? "tool" : "sub";
    const running = [
      ...panel.querySelectorAll(`.act.running[data-run="${CSS.escape(activity.runId)}"][data-kind="${kind}"]`),
    ];
    const match = running.reverse().find((el) => kind === "sub" || el.dataset.label === activity.label);
    if (match) {
      match.classList.remove("running");
      match.classList.add(activity.ok ? "done" : "failed");
      if (kind === "sub") {
        const outcome = activity.label.replace(/^sub-agent /, "");
        match.querySelector(".text").textContent = match.dataset.label.replace(/started$/, outcome);
      }
      return;
    }
  }
  const chip = document.createElement("div");
  const sub = activity.kind.startsWith("subagent");
  chip.className = `act ${sub ? "sub" : ""} ${activity.kind.endsWith("_start") || activity.kind === "subagent_spawned" ? "running" : activity.ok ? "done" : "failed"}`;
  chip.dataset.run = activity.runId;
  chip.dataset.kind = sub ? "sub" : "tool";
  chip.dataset.label = activity.label;
  chip.style.marginLeft = `${activity.depth * 18}px`;
  const dot = document.createElement("span");
  dot.className = "dot";
  const text = document.createElement("span");
  text.className = sub ? "text" : "tool";
  text.textContent = sub ? activity.label : `⚙ ${activity.label}`;
  chip.append(dot, text);
  panel.append(chip);
  if (room === state.room) scrollToEnd();
}

function renderTabs() {
  for (const tab of document.querySelectorAll(".room")) {
    const room = tab.dataset.room;
    const active = room === state.room;
    tab.classList.toggle("active", active);
    tab.setAttribute("aria-selected", String(active));
    tab.querySelector(".badge").hidden = !rooms[room].unread || active;
  }
}

function switchRoom(room) {
  state.room = room;
  rooms[room].unread = false;
  log.replaceChildren(empty, ...rooms[room].items);
  empty.hidden = rooms[room].items.length > 0;
  renderTabs();
  scrollToEnd();
  input.focus();
}

function setStatus(kind, text) {
  statusEl.className = `status ${kind}`;
  statusEl.textContent = text;
  sendButton.disabled = kind !== "online";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.retryMs = 500;
    setStatus("online", "online");
  });
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    switch (frame.type) {
      case "hello":
        state.me = frame;
        identityEl.innerHTML = frame.admin
          ? `${escapeHtml(frame.name)} · <span class="admin">admin</span>`
          : escapeHtml(frame.name);
        // The public id an operator lists under admins.webchat to make this browser an admin from anywhere.
        identityEl.title = `your public id: ${frame.publicId}`;
        for (const room of ["dm", "group"]) rooms[room].items = [];
        messageEls.clear();
        for (const message of frame.history) addMessage(message);
        switchRoom(state.room);
        break;
      case "message":
        addMessage(frame.message);
        break;
      case "edit":
        editMessage(frame);
        break;
      case "delete":
        deleteMessage(frame);
        break;
      case "typing":
        showTyping(frame.room);
        break;
      case "activity":
        addActivity(frame.room, frame.activity);
        break;
      case "error": {
        const el = document.createElement("div");
        el.className = "notice";
        el.textContent = frame.message;
        show(state.room, el);
        break;
      }
    }
  });
  socket.addEventListener("close", () => {
    setStatus("offline", "offline, reconnecting…");
    setTimeout(connect, state.retryMs);
    state.retryMs = Math.min(state.retryMs * 2, 10_000);
  });
}

function send() {
  const text = input.value.trim();
  if (!text || !state.socket || state.socket.readyState !== WebSocket.OPEN) return;
  state.socket.send(JSON.stringify({ type: "send", room: state.room, text }));
  input.value = "";
  autosize();
}

function autosize() {
  input.style.height = "auto";
  input.style.height = `${Math.min(input.scrollHeight, 160)}px`;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  send();
});
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});
input.addEventListener("input", autosize);
for (const tab of document.querySelectorAll(".room")) tab.addEventListener("click", () => switchRoom(tab.dataset.room));
for (const hint of document.querySelectorAll("[data-fill]")) {
  hint.addEventListener("click", () => {
    input.value = hint.dataset.fill;
    input.focus();
  });
}

setStatus("connecting", "connecting…");
connect();
input.focus();
