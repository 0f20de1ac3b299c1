// The playground page: one group chat of the fake Telegram, long-polled from /api/chat.
// Everything from the server is put into the page with textContent (bot texts carry user names).
// The page's own words come from locales/<lang>/playground.ftl through /api/texts.
"use strict";

const $ = (selector) => document.querySelector(selector);
const USER_KEY = "playground.user";
const NAME_COLORS = 7; // like Telegram's peer colours: the name colour follows the user id

const state = {
  lang: "ru",
  texts: {},          // pg-* key -> text in the page's language
  revision: 0,
  members: [],
  roles: new Map(),   // member id -> role, for the «админ» badge next to their messages
  readOnly: true,
  user: null,         // the member id we act as
  views: new Map(),   // message id -> {el, msg, sigs}; messages are updated in place, never re-added
  pending: new Set(), // "messageId|data" of presses in flight: a redrawn keyboard keeps the spinner
  membersSig: "",
  sending: false,
  ready: false,
  pinned: true,       // the user is at the bottom: new messages keep the view there
};

const input = $("#composer input[name=text]");

function t(key) {
  return state.texts[key] ?? key;
}

// ?lang=en wins, then the browser's languages; Russian is the bot's first language
function pageLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "ru" || asked === "en") return asked;
  const first = (navigator.languages || [navigator.language || ""]).find((l) => /^(ru|en)\b/i.test(l));
  return first ? first.slice(0, 2).toLowerCase() : "ru";
}

async function loadTexts() {
  try {
    const response = await fetch("/api/texts?lang=" + pageLanguage(), { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    const data = await response.json();
    state.lang = data.lang;
    state.texts = data.texts || {};
  } catch {
    setTimeout(loadTexts, 1000);
    return;
  }
  document.documentElement.lang = state.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
  for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  $("#messages").dataset.empty = t("pg-empty");
  poll();
}

function h(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text != null) el.textContent = text;
  return el;
}

// ---------------------------------------------------------------- text with entities

const SCHEME = /^[a-z][a-z\d+.-]*:/i;
const WEB_URL = /^https?:\/\//i;

function entityElement(entity, text) {
  const slice = text.slice(entity.offset, entity.end);
  switch (entity.type) {
    case "bold": return h("strong");
    case "italic": return h("em");
    case "underline": return h("u");
    case "strikethrough": return h("s");
    case "code": return h("code");
    case "spoiler": return Object.assign(h("span", "spoiler"), { title: t("pg-reveal") });
    case "blockquote": return h("blockquote");
    case "expandable_blockquote": return Object.assign(h("blockquote", "expandable"), { title: t("pg-expand") });
    case "pre": {
      const pre = h("pre");
      if (entity.language) pre.dataset.language = entity.language;
      return pre;
    }
    case "text_link": return link(typeof entity.url === "string" && WEB_URL.test(entity.url) ? entity.url : null);
    // a bare "example.com" is a link too; other schemes (javascript: …) never are
    case "url": return link(WEB_URL.test(slice) ? slice : SCHEME.test(slice) ? null : "//" + slice);
    case "bot_command": return Object.assign(h("span", "command"), { title: t("pg-put-into-input") });
    default: return h("span", entity.type.replace(/[^a-z_]/g, "")); // mention, hashtag, cashtag, email…
  }
}

function link(href) {
  if (!href) return h("span", "link");
  const a = h("a");
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  return a;
}

// Entities nest (bold inside a blockquote), so the text is cut at every entity boundary and each run
// is put inside the entities covering it, reusing the open elements the previous run shares.
function renderRich(target, text, entities) {
  target.replaceChildren();
  if (!text) return;
  const ents = (Array.isArray(entities) ? entities : [])
    .filter((e) => e && typeof e.type === "string" && e.length > 0 && e.offset >= 0 && e.offset < text.length)
    .map((e, i) => ({ ...e, end: Math.min(text.length, e.offset + e.length), i }))
    .sort((a, b) => a.offset - b.offset || b.end - a.end || a.i - b.i);
  const cuts = [...new Set([0, text.length, ...ents.flatMap((e) => [e.offset, e.end])])].sort((a, b) => a - b);
  const stack = []; // [{entity, el}] open elements, outermost first
  for (let c = 0; c + 1 < cuts.length; c++) {
    const [from, to] = [cuts[c], cuts[c + 1]];
    const active = ents.filter((e) => e.offset <= from && e.end >= to);
    let keep = 0;
    while (keep < stack.length && keep < active.length && stack[keep].entity === active[keep]) keep++;
    stack.length = keep;
    for (const entity of active.slice(keep)) {
      const el = entityElement(entity, text);
      (stack.length ? stack[stack.length - 1].el : target).append(el);
      stack.push({ entity, el });
    }
    (stack.length ? stack[stack.length - 1].el : target).append(text.slice(from, to));
  }
}

// ---------------------------------------------------------------- messages

function colorClass(id) {
  return "c" + (((Number(id) || 0) % NAME_COLORS) + NAME_COLORS) % NAME_COLORS;
}

function isAdmin(role) {
  return role === "creator" || role === "administrator";
}

function buildKeyboard(msg) {
  const keyboard = h("div", "keyboard");
  for (const row of msg.buttons) {
    const rowEl = h("div", "row");
    for (const b of row) {
      if (b.url && WEB_URL.test(b.url)) {
        const a = link(b.url);
        a.className = "kb url";
        a.textContent = b.text;
        a.title = b.url;
        rowEl.append(a);
        continue;
      }
      const button = h("button", "kb", b.text);
      button.type = "button";
      if (b.data != null) button.dataset.data = b.data;
      const busy = b.data != null && state.pending.has(msg.id + "|" + b.data);
      button.classList.toggle("busy", busy);
      button.disabled = busy || state.readOnly || b.data == null;
      rowEl.append(button);
    }
    keyboard.append(rowEl);
  }
  return keyboard;
}

function createView(msg) {
  const el = h("div", "message");
  el.dataset.messageId = String(msg.id);
  const bubble = h("div", "bubble");
  const head = h("div", "sender-line");
  const text = h("div", "text");
  const meta = h("div", "meta");
  bubble.append(head, text, meta);
  el.append(bubble);
  return { el, bubble, head, text, meta, quote: null, media: null, keyboard: null, sigs: {} };
}

// What a reply's quote says of a message with no words: the words for its picture or clip
const QUOTED_MEDIA = { photo: "pg-reply-photo", video: "pg-reply-video" };

// Telegram's reply header: the replied-to message's author and first line; a click goes there
function buildQuote(reply) {
  const from = reply.from || {};
  const quote = h("button", "reply-quote " + colorClass(from.id));
  quote.type = "button";
  const text = reply.deleted ? t("pg-reply-deleted") : reply.text || t(QUOTED_MEDIA[reply.media] ?? "pg-reply-empty");
  quote.append(h("span", "reply-author", from.name || "?"), h("span", "reply-text", text));
  if (reply.deleted) {
    quote.classList.add("deleted");
    quote.disabled = true;
  } else {
    quote.dataset.replyTo = String(reply.id);
    quote.title = t("pg-reply-jump");
  }
  return quote;
}

// The replied-to message comes into view and lights up for a moment (it may be gone from the page)
function jumpTo(id) {
  const target = state.views.get(id)?.el;
  if (!target) return;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
  target.classList.remove("flash");
  void target.offsetWidth; // restart the animation when jumped to twice
  target.classList.add("flash");
}

// A picture is an <img>; a clip (sendAnimation's MP4) a looping muted <video> with controls, sized
// from the start by its width and height so the chat does not jump when it loads
function createMedia(kind, clip) {
  if (kind === "photo") return Object.assign(h("img", "photo"), { alt: t("pg-board"), decoding: "async" });
  if (kind === "gif") return Object.assign(h("img", "photo gif"), { alt: t("pg-reply-video"), decoding: "async" });
  const video = h("video", "video");
  Object.assign(video, { controls: true, loop: true, autoplay: true, playsInline: true, preload: "auto" });
  video.muted = video.defaultMuted = true; // muted, a browser lets it play by itself
  video.setAttribute("aria-label", t("pg-reply-video"));
  if (clip.width > 0 && clip.height > 0) Object.assign(video, { width: clip.width, height: clip.height });
  return video;
}

// Only a new picture or clip replaces the element: the same one keeps its <img> (no flicker) and a
// clip keeps playing while the caption under it changes
function updateMedia(view, msg) {
  const clip = msg.video && typeof msg.video.url === "string" ? msg.video : null;
  const kind = msg.photo ? "photo" : clip ? (/^image\//.test(clip.mime_type || "") ? "gif" : "video") : null;
  const src = msg.photo || clip?.url || null;
  if (view.media && view.media.dataset.kind !== kind) {
    view.media.remove();
    view.media = null;
  }
  if (!kind) return;
  if (!view.media) {
    view.media = createMedia(kind, clip);
    view.media.dataset.kind = kind;
    view.media.addEventListener(kind === "video" ? "loadedmetadata" : "load", () => state.pinned && scrollToBottom());
    view.bubble.insertBefore(view.media, view.text);
  }
  if (view.media.getAttribute("src") !== src) view.media.src = src;
}

// Only the parts whose data changed are rebuilt: an unchanged photo keeps its <img> (no flicker),
// an unchanged text keeps its revealed spoilers.
function updateView(view, msg) {
  view.msg = msg;
  const from = msg.from || {};
  const role = from.is_bot ? null : state.roles.get(from.id);
  const { el, sigs } = view;
  el.classList.toggle("bot", !!from.is_bot);
  el.classList.toggle("user", !from.is_bot);
  el.classList.toggle("has-photo", !!msg.photo);
  el.classList.toggle("has-video", !msg.photo && !!msg.video);
  applyOwn(view);

  const headSig = JSON.stringify([from.id, from.name, isAdmin(role)]);
  if (sigs.head !== headSig) {
    sigs.head = headSig;
    const sender = h("span", "sender " + colorClass(from.id), from.name || "?");
    view.head.replaceChildren(sender);
    if (isAdmin(role)) view.head.append(Object.assign(h("span", "badge", t("pg-admin")), { title: t("pg-admin-hint") }));
  }

  const replySig = JSON.stringify(msg.reply_to ?? null);
  if (sigs.reply !== replySig) {
    sigs.reply = replySig;
    view.quote?.remove();
    view.quote = msg.reply_to ? buildQuote(msg.reply_to) : null;
    if (view.quote) view.bubble.insertBefore(view.quote, view.head.nextSibling);
  }

  updateMedia(view, msg);

  const body = msg.text != null ? [msg.text, msg.entities] : [msg.caption, msg.caption_entities];
  const textSig = JSON.stringify(body);
  if (sigs.text !== textSig) {
    sigs.text = textSig;
    renderRich(view.text, body[0] || "", body[1]);
    view.text.hidden = !body[0];
  }

  const metaSig = JSON.stringify([msg.date, !!msg.edited]);
  if (sigs.meta !== metaSig) {
    sigs.meta = metaSig;
    view.meta.replaceChildren();
    if (msg.edited) view.meta.append(h("span", "edited", t("pg-edited")));
    const when = new Date((msg.date || 0) * 1000);
    const locale = state.lang === "en" ? "en-GB" : "ru-RU";
    const time = h("time", null, when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" }));
    time.dateTime = when.toISOString();
    time.title = when.toLocaleString(locale);
    view.meta.append(time);
  }

  const buttons = Array.isArray(msg.buttons) ? msg.buttons : [];
  const kbSig = JSON.stringify([buttons, state.readOnly]);
  if (sigs.kb !== kbSig) {
    sigs.kb = kbSig;
    view.keyboard?.remove();
    view.keyboard = buttons.length ? buildKeyboard({ ...msg, buttons }) : null;
    if (view.keyboard) el.append(view.keyboard);
  }
}

function applyOwn(view) {
  const from = view.msg.from || {};
  view.el.classList.toggle("own", !from.is_bot && from.id === state.user);
}

function renderMessages(messages) {
  const list = $("#messages");
  const seen = new Set();
  messages.forEach((msg, index) => {
    seen.add(msg.id);
    let view = state.views.get(msg.id);
    if (!view) state.views.set(msg.id, (view = createView(msg)));
    updateView(view, msg);
    if (list.children[index] !== view.el) list.insertBefore(view.el, list.children[index] || null);
  });
  for (const [id, view] of state.views) { // deleted, or older than the last 200
    if (!seen.has(id)) {
      view.el.remove();
      state.views.delete(id);
    }
  }
}

// ---------------------------------------------------------------- members and the header

function renderMembers(members) {
  const sig = JSON.stringify(members);
  if (sig === state.membersSig) return;
  state.membersSig = sig;
  state.members = members;
  state.roles = new Map(members.map((m) => [m.id, m.role]));
  const box = $("#members");
  box.replaceChildren(...members.map((m) => {
    const button = h("button", isAdmin(m.role) ? "admin" : null, m.name);
    button.type = "button";
    button.dataset.userId = String(m.id);
    if (isAdmin(m.role)) {
      button.dataset.badge = t("pg-admin");
      button.title = t("pg-admin-hint");
    }
    return button;
  }));
  let saved = null;
  try { saved = Number(localStorage.getItem(USER_KEY)); } catch { /* storage may be off */ }
  selectUser(members.some((m) => m.id === saved) ? saved : members[0]?.id ?? null, false);
}

function selectUser(id, remember) {
  state.user = id;
  if (remember) try { localStorage.setItem(USER_KEY, String(id)); } catch { /* storage may be off */ }
  for (const button of $("#members").children) {
    const active = Number(button.dataset.userId) === id;
    button.classList.toggle("active", active);
    button.setAttribute("aria-pressed", String(active));
  }
  state.views.forEach(applyOwn);
}

function render(data) {
  const members = Array.isArray(data.members) ? data.members : [];
  state.readOnly = !!data.read_only || members.length === 0;
  renderMembers(members);
  const title = data.title || t("pg-chat");
  $("#title").textContent = title;
  document.title = title + " — " + t("pg-page-title");
  const bot = data.bot || {};
  const names = members.map((m) => m.name);
  if (bot.username) names.push(t("pg-bot") + " @" + bot.username);
  $("#subtitle").textContent = names.join(", ");
  $("#member-bar").hidden = state.readOnly;
  $("#footer").hidden = state.readOnly;
  $("#readonly").hidden = !state.readOnly;

  renderMessages(Array.isArray(data.messages) ? data.messages : []);
  if (state.pinned || !state.ready) scrollToBottom();
  document.body.dataset.revision = String(data.revision);
  if (!state.ready) {
    state.ready = true;
    document.body.dataset.ready = "1";
  }
}

// ---------------------------------------------------------------- scrolling

function nearBottom() {
  const doc = document.documentElement;
  return window.innerHeight + window.scrollY >= doc.scrollHeight - 48;
}

function scrollToBottom() {
  window.scrollTo(0, document.documentElement.scrollHeight);
  state.pinned = true;
}

window.addEventListener("scroll", () => { state.pinned = nearBottom(); }, { passive: true });
window.addEventListener("resize", () => state.pinned && scrollToBottom());

// ---------------------------------------------------------------- talking to the server

async function poll() {
  const started = Date.now();
  const before = state.revision;
  try {
    const response = await fetch("/api/chat?after=" + encodeURIComponent(state.revision), { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    const data = await response.json();
    state.revision = Number(data.revision) || 0;
    render(data);
    $("#status").hidden = true;
    // a server that answers at once with no news would otherwise make this a busy loop
    setTimeout(poll, state.revision === before && Date.now() - started < 1000 ? 1000 : 0);
  } catch (err) {
    $("#status").hidden = false;
    setTimeout(poll, 1000);
  }
}

async function postJSON(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch {
    throw new Error(t("pg-error-offline"));
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.ok) {
    throw new Error(answer.error_key ? t(answer.error_key) : t("pg-error") + " " + response.status);
  }
  return answer;
}

async function send(text) {
  if (state.sending || state.readOnly || state.user == null || !text.trim()) return;
  state.sending = true;
  $("#composer button[type=submit]").disabled = true;
  try {
    await postJSON("/api/send", { user: state.user, text });
    if (input.value === text) input.value = "";
    state.pinned = true; // one's own message should come into view
  } catch (err) {
    showToast(err.message, true);
  } finally {
    state.sending = false;
    $("#composer button[type=submit]").disabled = false;
  }
}

function setBusy(messageId, data, busy) {
  const view = state.views.get(messageId);
  for (const button of view?.keyboard?.querySelectorAll("button.kb") ?? []) {
    if (button.dataset.data !== data) continue;
    button.classList.toggle("busy", busy);
    button.disabled = busy || state.readOnly;
  }
}

async function press(messageId, data) {
  const key = messageId + "|" + data;
  if (state.readOnly || state.user == null || state.pending.has(key)) return;
  state.pending.add(key);
  setBusy(messageId, data, true);
  try {
    const { answer } = await postJSON("/api/press", { user: state.user, message_id: messageId, data });
    if (answer && answer.text) (answer.show_alert ? showAlert : showToast)(answer.text);
  } catch (err) {
    showToast(err.message, true);
  } finally {
    state.pending.delete(key);
    setBusy(messageId, data, false); // the keyboard may have been redrawn meanwhile: look it up again
  }
}

// ---------------------------------------------------------------- toast and alert

let toastTimer = 0;

function showToast(text, isError = false) {
  const toast = $("#toast");
  toast.textContent = text;
  toast.classList.toggle("error", isError);
  toast.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => toast.classList.remove("show"), isError ? 4000 : 2500);
}

function showAlert(text) {
  $("#alert .alert-text").textContent = text;
  $("#alert").hidden = false;
  $("#alert button").focus();
}

function closeAlert() {
  $("#alert").hidden = true;
}

// ---------------------------------------------------------------- events

$("#members").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-user-id]");
  if (button) selectUser(Number(button.dataset.userId), true);
});

$("#composer").addEventListener("submit", (event) => {
  event.preventDefault();
  send(input.value);
});

$("#chips").addEventListener("click", (event) => {
  const chip = event.target.closest("button[data-command]");
  if (!chip) return;
  input.value = chip.dataset.command;
  send(chip.dataset.command);
});

$("#messages").addEventListener("click", (event) => {
  const target = event.target;
  const replyQuote = target.closest(".reply-quote[data-reply-to]");
  if (replyQuote) {
    jumpTo(Number(replyQuote.dataset.replyTo));
    return;
  }
  const spoiler = target.closest(".spoiler:not(.revealed)");
  if (spoiler) { // the first click only reveals, even on a link or command inside
    event.preventDefault();
    spoiler.classList.add("revealed");
    return;
  }
  const command = target.closest(".command");
  if (command && !state.readOnly) {
    input.value = command.textContent;
    input.focus();
    return;
  }
  const quote = target.closest("blockquote.expandable");
  if (quote && !target.closest("a")) {
    quote.classList.toggle("expanded");
    return;
  }
  const button = target.closest("button.kb[data-data]");
  if (button && !button.disabled) press(Number(button.closest(".message").dataset.messageId), button.dataset.data);
});

$("#alert button").addEventListener("click", closeAlert);
$("#alert").addEventListener("click", (event) => { if (event.target === event.currentTarget) closeAlert(); });
document.addEventListener("keydown", (event) => {
  if (!$("#alert").hidden && (event.key === "Escape" || event.key === "Enter")) {
    event.preventDefault();
    closeAlert();
  }
});

loadTexts();
