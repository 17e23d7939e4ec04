// Chorus WebChat: one WebSocket, two rooms (your DM with the bot, and the shared group), Markdown replies
// streamed by edits, and live activity (tool calls, sub-agents) under the conversation. Files go up over HTTP
// (POST /upload, attach button, paste or drop) and their ids travel with the message; files the bot sends come as
// download links (/files/<id>), images also shown inline.
const log = document.getElementById("log");
const empty = document.getElementById("empty");
const input = document.getElementById("input");
const form = document.getElementById("composer");
const sendButton = document.getElementById("send");
const statusEl = document.getElementById("status");
const identityEl = document.getElementById("identity");
const attachButton = document.getElementById("attach");
const fileInput = document.getElementById("file");
const pendingEl = document.getElementById("pending");
const appEl = document.querySelector(".app");

const state = { room: "dm", me: null, socket: null, retryMs: 500 };
const rooms = { dm: { items: [], unread: false }, group: { items: [], unread: false } };
const messageEls = new Map(); // message id → element
const runPanels = { dm: null, group: null }; // the activity panel of the running turn, per room
const pending = []; // files attached to the message being written: { name, size, id, failed, done, el }

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
  const files = message.files ?? [];
  setText(bubble, { ...message, files });
  el.append(meta, bubble);
  if (files.length > 0) el.append(fileList(files));
  messageEls.set(message.id, { el, bubble, role: message.role, files });
  show(message.room, el);
}

function setText(bubble, message) {
  if (message.role === "bot") bubble.innerHTML = renderMarkdown(message.text);
  else bubble.textContent = message.text;
  // A file sent without a caption shows no empty bubble.
  bubble.hidden = message.text.trim() === "" && message.files.length > 0;
}

const CLIP_SVG =
  '<svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true"><path d="M16.5 6.5 8.6 14.4a2 2 0 0 0 2.8 2.8l8-8a4 4 0 0 0-5.6-5.6l-8.2 8.2a6 6 0 0 0 8.5 8.5l7.1-7.1" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** A file's name after a paperclip (the name as text, never markup). */
function clipped(element, name) {
  element.innerHTML = CLIP_SVG;
  element.append(` ${name}`);
  return element;
}

function formatSize(bytes) {
  if (typeof bytes !== "number") return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A message's files: a download link (and an inline image) for a file the bot sent; the name for an attached one. */
function fileList(files) {
  const list = document.createElement("div");
  list.className = "files";
  for (const file of files) {
    const item = document.createElement("div");
    item.className = "file";
    if (file.url && file.image) {
      const img = document.createElement("img");
      img.className = "preview";
      img.src = file.url;
      img.alt = file.name;
      img.loading = "lazy";
      img.addEventListener("load", () => {
        if (log.contains(img)) scrollToEnd();
      });
      item.append(img);
    }
    const name = clipped(document.createElement(file.url ? "a" : "span"), file.name);
    name.className = "file-name";
    if (file.url) {
      name.href = file.url;
      name.download = file.name;
    }
    const size = document.createElement("span");
    size.className = "size";
    size.textContent = formatSize(file.sizeBytes);
    item.append(name, size);
    list.append(item);
  }
  return list;
}

function editMessage(frame) {
  const entry = messageEls.get(frame.id);
  if (!entry) return;
  setText(entry.bubble, { role: entry.role, text: frame.text, files: entry.files });
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
      case "error":
        notice(frame.message);
        break;
    }
  });
  socket.addEventListener("close", () => {
    setStatus("offline", "offline, reconnecting…");
    setTimeout(connect, state.retryMs);
    state.retryMs = Math.min(state.retryMs * 2, 10_000);
  });
}

function notice(text) {
  const el = document.createElement("div");
  el.className = "notice";
  el.textContent = text;
  show(state.room, el);
}

function renderPending() {
  pendingEl.replaceChildren(...pending.map((file) => file.el));
  pendingEl.hidden = pending.length === 0;
}

/** Uploads files at once (the message carries their ids); each shows as a chip until the message is sent. */
function attachFiles(files) {
  const max = state.me?.maxUploadBytes;
  for (const file of files) {
    const name = file.name || "file";
    if (max && file.size > max) {
      notice(`${name} is larger than this WebChat takes (${formatSize(max)})`);
      continue;
    }
    const entry = { name, size: file.size, id: null, failed: false, el: document.createElement("span") };
    entry.el.className = "chip uploading";
    entry.el.dataset.name = name;
    const label = clipped(document.createElement("span"), `${name} · ${formatSize(file.size)}`);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove";
    remove.setAttribute("aria-label", `Remove ${name}`);
    remove.textContent = "×";
    remove.addEventListener("click", () => {
      const index = pending.indexOf(entry);
      if (index >= 0) pending.splice(index, 1);
      renderPending();
    });
    entry.el.append(label, remove);
    entry.done = fetch(`/upload?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { "content-type": file.type || "application/octet-stream" },
      body: file,
    })
      .then(async (response) => {
        if (!response.ok) throw new Error((await response.text()) || `upload failed (${response.status})`);
        entry.id = (await response.json()).id;
        entry.el.className = "chip ready";
      })
      .catch((error) => {
        entry.failed = true;
        entry.el.className = "chip failed";
        entry.el.title = error.message;
        notice(`${name}: ${error.message}`);
      });
    pending.push(entry);
  }
  renderPending();
}

async function send() {
  const text = input.value.trim();
  if ((!text && pending.length === 0) || !state.socket || state.socket.readyState !== WebSocket.OPEN) return;
  const room = state.room;
  const files = pending.splice(0);
  input.value = "";
  autosize();
  renderPending();
  await Promise.all(files.map((file) => file.done));
  const attachments = files.filter((file) => file.id).map((file) => file.id);
  if (!text && attachments.length === 0) return;
  state.socket.send(JSON.stringify({ type: "send", room, text, ...(attachments.length ? { attachments } : {}) }));
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
attachButton.addEventListener("click", () => fileInput.click());
fileInput.addEventListener("change", () => {
  attachFiles([...fileInput.files]);
  fileInput.value = "";
});
// An image (or any file) pasted from the clipboard is attached; pasted text stays text.
document.addEventListener("paste", (event) => {
  const files = [...(event.clipboardData?.files ?? [])];
  if (files.length === 0) return;
  event.preventDefault();
  attachFiles(files);
});
const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");
appEl.addEventListener("dragover", (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  appEl.classList.add("dragging");
});
appEl.addEventListener("dragleave", (event) => {
  if (event.target === appEl || !appEl.contains(event.relatedTarget)) appEl.classList.remove("dragging");
});
appEl.addEventListener("drop", (event) => {
  appEl.classList.remove("dragging");
  if (!carriesFiles(event)) return;
  event.preventDefault();
  attachFiles([...event.dataTransfer.files]);
});
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
