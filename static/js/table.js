// The live table client: one WebSocket, the server's per-seat view, the legal actions as buttons.
// Game-agnostic: it shows what the engine's view contains; game-specific layouts build on it.

import { cardSvg, isCardCode, isCovered, styleForGame } from "./cards.js";

const root = document.getElementById("table");
const deckStyle = styleForGame(root.dataset.deckStyle, root.dataset.italianDeck === "1");
const tableId = root.dataset.table;
const $ = (role) => root.querySelector(`[data-role="${role}"]`);
const SPEC_META = new Set(["label", "confirm", "amount"]);

let socket = null;
let version = 0;
let retries = 0;
let noticeTimer = null;

function notice(text, sticky = false) {
  const el = $("notice");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(() => { el.hidden = true; }, 3000);
}

function render(value) {
  // A readable rendering of any view: objects as definition lists, cards as small faces.
  if (Array.isArray(value)) {
    if (value.length && value.every((c) => isCardCode(c) || isCovered(c))) {
      const row = document.createElement("span");
      row.className = "carte";
      const size = window.innerWidth < 600 ? 40 : 56;
      for (const c of value) row.append(cardSvg(c, { style: deckStyle, size, compact: size < 60 }));
      return row;
    }
    const list = document.createElement("ol");
    for (const item of value) { const li = document.createElement("li"); li.append(render(item)); list.append(li); }
    return list;
  }
  if (value && typeof value === "object") {
    const dl = document.createElement("dl");
    for (const [k, v] of Object.entries(value)) {
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.append(render(v));
      dl.append(dt, dd);
    }
    return dl;
  }
  if (isCardCode(value)) return cardSvg(value, { style: deckStyle, size: 56 });
  return document.createTextNode(String(value ?? "—"));
}

function act(spec) {
  const action = {};
  for (const [k, v] of Object.entries(spec)) if (!SPEC_META.has(k)) action[k] = v;
  if (spec.amount) {
    const input = $("actions").querySelector("input[name=amount]");
    const amount = Number.parseInt(input?.value ?? "", 10);
    if (!Number.isInteger(amount) || amount < spec.amount.min || amount > spec.amount.max) {
      notice(`Importo non ammesso: da ${spec.amount.min} a ${spec.amount.max}`);
      return;
    }
    action.amount = amount;
  }
  if (spec.confirm && !window.confirm(spec.confirm)) return;
  socket.send(JSON.stringify({ type: "act", action, version }));
}

function renderState(msg) {
  version = msg.version;
  const seats = $("seats");
  seats.replaceChildren(...msg.seats.map((s) => {
    const el = document.createElement("div");
    el.className = `seat${msg.to_act.includes(s.number) ? " to-act" : ""}${s.number === msg.seat ? " me" : ""}`;
    el.textContent = `${s.number}. ${s.nickname}${s.bot ? " (bot)" : ""}${s.status === "sitout" ? " · sitout" : ""}`;
    return el;
  }));
  $("view").replaceChildren(msg.view ? render(msg.view) : document.createTextNode("In attesa dei giocatori…"));
  const box = $("actions");
  box.replaceChildren();
  const withAmount = msg.legal.find((a) => a.amount);
  if (withAmount) {
    const input = document.createElement("input");
    Object.assign(input, { type: "number", name: "amount", min: withAmount.amount.min, max: withAmount.amount.max,
      value: withAmount.amount.min, step: 1 });
    input.setAttribute("aria-label", "Importo");
    box.append(input);
  }
  const mySeat = msg.seats.find((s) => s.nickname === document.querySelector("[data-testid=nickname]")?.textContent);
  if (msg.ready_deadline && mySeat && !mySeat.ready && (!msg.view || msg.over)) {
    const seconds = Math.max(0, Math.round((new Date(msg.ready_deadline) - Date.now()) / 1000));
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.role = "ready";
    b.textContent = msg.over ? `Un'altra partita (${seconds} s)` : `Sono pronto per iniziare (${seconds} s)`;
    b.addEventListener("click", () => socket.send(JSON.stringify({ type: "ready" })));
    box.append(b);
  }
  if (mySeat && mySeat.status === "sitout" && !mySeat.leaving) {
    const back = document.createElement("button");
    back.type = "button";
    back.dataset.role = "back";
    back.textContent = "SONO TORNATO";
    back.addEventListener("click", () => socket.send(JSON.stringify({ type: "sitout", sitout: false })));
    box.append(back);
  }
  for (const spec of msg.legal) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = spec.label || spec.type;
    b.addEventListener("click", () => act(spec));
    box.append(b);
  }
}

function onMessage(event) {
  const msg = JSON.parse(event.data);
  if (msg.type === "table.state") renderState(msg);
  else if (msg.type === "error") notice(msg.message || "Giocata non ammessa");
  else if (msg.type === "chat") {
    const line = document.createElement("p");
    line.textContent = `${msg.nickname}: ${msg.text}`;
    $("chat-log").append(line);
    $("chat-log").scrollTop = $("chat-log").scrollHeight;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/table/${tableId}/`);
  socket.addEventListener("open", () => {
    if (retries) { notice("Connessione ristabilita"); socket.send(JSON.stringify({ type: "sync", version })); }
    retries = 0;
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", () => {
    retries += 1;
    if (retries > 10) { notice("Tentativo di riconnessione fallito - controlla la tua connessione", true); return; }
    notice("Tentativo di riconnessione in corso", true);
    setTimeout(connect, Math.min(1000 * retries, 5000));
  });
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = e.target.elements.text;
  if (input.value.trim() && socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "chat", text: input.value }));
    input.value = "";
  }
});

connect();
