// What the Shell in the browser: the pages, the game socket, the tutorial and
// the replay viewer. The protocol is in docs/serve.md.
"use strict";

const PROTOCOL = 1;
const SQUARE = /^[A-Ia-i][1-9]$/;
const $ = (id) => document.getElementById(id);

function show(view) {
  for (const id of ["home", "play", "learn", "replay", "account", "profile", "leaderboard", "lobby"]) {
    $(id).hidden = id !== view;
  }
  document.body.dataset.view = view;
}

async function api(path, body, method) {
  const response = await fetch(path, {
    method: method || (body === undefined ? "GET" : "POST"),
    headers: typeof body === "string" ? {"content-type": "text/plain"} : {"content-type": "application/json"},
    body: body === undefined ? undefined : (typeof body === "string" ? body : JSON.stringify(body)),
  });
  if (response.status === 204) return {};
  const data = await response.json().catch(() => ({message: response.statusText}));
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
}

// ---- Who is logged in ----------------------------------------------------------------

// The account of this browser's session (its cookie is HttpOnly: only the server reads it).
const session = fetch("/api/session").then((r) => r.json()).then((s) => s.account).catch(() => null);

session.then((me) => {
  const nav = $("account-nav");
  nav.textContent = "";
  const link = document.createElement("a");
  link.id = me ? "me-nav" : "login-link";
  link.href = me ? `/players/${me.name}` : "/account";
  link.textContent = me ? me.name : "Log in";
  nav.appendChild(link);
  if (me) {
    const settings = document.createElement("a");
    settings.href = "/account"; settings.textContent = "Account";
    nav.appendChild(settings);
  }
  document.body.dataset.account = me ? me.name : "";
  $("rated-choice").hidden = !me;
});

const seats = {
  get: (game) => JSON.parse(localStorage.getItem("wts-seats-" + game) || "{}"),
  add: (game, tokens) => localStorage.setItem("wts-seats-" + game,
                                              JSON.stringify({...seats.get(game), ...tokens})),
};

function clockChoice(value) {
  if (!value) return null;
  const [kind, seconds] = value.split(":");
  return {kind, seconds: Number(seconds)};
}

// ---- Home -------------------------------------------------------------------------

function clockChoices() {
  for (const select of document.querySelectorAll(".clock-choice")) {
    if (select.options.length) continue;
    for (const [value, label] of [["", "No clock"], ["game:300", "5 minutes a game"],
                                  ["game:900", "15 minutes a game"], ["move:30", "30 seconds a move"],
                                  ["move:10", "10 seconds a move"]]) {
      select.add(new Option(label, value));
    }
  }
}

function home(problem) {
  show("home");
  clockChoices();
  $("home-error").textContent = problem || "";
  const start = (form, mode) => form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = {mode, clock: clockChoice(data.get("clock"))};
    if (data.get("color")) body.color = data.get("color");
    if (data.get("level")) body.level = Number(data.get("level"));
    if (data.get("rated")) body.rated = true;
    try {
      const made = await api("/api/games", body);
      seats.add(made.game, made.tokens);
      location.assign(made.url);
    } catch (error) { $("home-error").textContent = error.message; }
  });
  start($("bot-form"), "bot");
  start($("hotseat-form"), "hotseat");
  start($("online-form"), "online");
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    location.assign("/join/" + $("join-code").value.trim().toUpperCase());
  });
}

async function join(code) {
  home();
  try {
    const joined = await api("/api/join", {code});
    seats.add(joined.game, joined.tokens);
    location.replace(joined.url);
  } catch (error) { $("home-error").textContent = "Cannot join: " + error.message; }
}

// ---- A game ------------------------------------------------------------------------

function play(game) {
  show("play");
  // A seat link (/game/ID#seat=TOKEN) moves a seat to this device: the token
  // is kept here and the fragment, never sent to the server, is dropped.
  const carried = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (carried && /^[A-Za-z0-9_-]{32}$/.test(carried)) {
    seats.add(game, {carried});
    history.replaceState(null, "", location.pathname);
  }
  const tokens = seats.get(game);
  let state = null, socket = null, shown = null, cancel = null, retry = 500, stamp = 0;

  $("record-link").href = `/api/games/${game}/record`;
  $("svg-link").href = `/api/games/${game}/svg`;
  $("replay-link").href = `/replay?game=${game}`;

  const mine = () => state ? state.you : [];
  // The colour this screen chooses for next: its one seat, or in hotseat the first
  // of its seats that has not committed.
  const chooser = () => {
    if (!state || state.over) return null;
    const open = mine().filter((c) => !state.committed[c]);
    return open.length ? open[0] : null;
  };

  function prompt() {
    if (!state) return "";
    if (state.over) return "";
    if (state.failure) return state.failure;
    const you = mine();
    const other = (c) => (c === "black" ? "white" : "black");
    if (!you.length) {
      return ["black", "white"].map((c) => `${c}: ${state.committed[c] ? "has chosen" : "choosing"}`).join(", ");
    }
    if (you.length === 2) {
      const next = chooser();
      if (!next) return "";
      const first = next === "white" && state.committed.black;
      return first ? "Black has chosen (hidden). White, your turn: choose a square."
                   : "Black, choose a square. White, look away.";
    }
    const me = you[0];
    if (state.committed[me]) {
      const waiting = state.seats[other(me)] === "bot" ? "the bot is thinking" : "waiting for your opponent";
      return `You chose ${state.yours || "a square"}; ${waiting}.`;
    }
    if (state.seats[other(me)] === "free") return "Waiting for your opponent to join.";
    const them = state.seats[other(me)] === "bot"
      ? (state.thinking ? "The bot is thinking." : (state.committed[other(me)] ? "The bot has chosen." : ""))
      : (state.committed[other(me)] ? "Your opponent has chosen." : "");
    return `You are ${me}: choose a square. ${them}`.trim();
  }

  function playersLine() {
    const who = (c) => state.players[c] || (state.seats[c] === "bot" ? "the bot"
                                           : state.seats[c] === "free" ? "(free seat)" : "a guest");
    const watching = mine().length ? "" : " · you are watching";
    return `Black: ${who("black")} · White: ${who("white")}${state.rated ? " · rated" : ""}${watching}`;
  }

  function marks() {
    const m = {win: [...state.winning.black, ...state.winning.white]};
    if (state.last) m.last = state.last.collision ? [state.last.collision] : [state.last.black, state.last.white];
    if (state.yours) m.mine = [state.yours];
    return m;
  }

  function render() {
    const pick = chooser() && !(mine().length === 1 && state.seats[mine()[0] === "black" ? "white" : "black"] === "free")
      ? choose : null;
    WtsBoard.draw($("board"), state.board, marks(), pick, state.eggs);
    $("status").textContent = state.words;
    // The last turn in words, until the next one.
    $("turn-words").textContent = state.last ? `Turn ${state.moves.length}: ${WtsBoard.describe(state.last)}` : "";
    $("players").textContent = playersLine();
    $("prompt").textContent = prompt();
    document.body.dataset.over = state.over ? "1" : "0";
    document.body.dataset.turn = String(state.turn);
    document.body.dataset.thinking = state.thinking ? "1" : "0";
    $("move-form").hidden = !pick;
    $("invite").hidden = !state.invite;
    if (state.invite) {
      const link = `${location.origin}/join/${state.invite}`;
      $("invite-link").href = link; $("invite-link").textContent = link;
      $("invite-code").textContent = state.invite;
    }
    const own = Object.values(tokens);
    $("seat").hidden = !(mine().length === 1 && own.length && !state.over);
    if (!$("seat").hidden) {
      const link = `${location.origin}/game/${game}#seat=${own[own.length - 1]}`;
      $("seat-link").href = link; $("seat-link").textContent = link;
    }
    $("rematch").hidden = !(state.over && mine().length);
    $("rematch-join").hidden = !state.rematch;
    if (state.rematch) $("rematch-join").href = `/join/${state.rematch}`;
    // The spectators' link stays once the opponent has joined: watching starts later.
    $("watch").hidden = state.mode !== "online";
    const watch = `${location.origin}/game/${game}`;
    $("watch-link").href = watch; $("watch-link").textContent = watch;
    const list = $("moves");
    list.textContent = "";
    state.moves.forEach(([b, w], i) => {
      const item = document.createElement("li");
      const events = state.history[i];
      item.textContent = events ? WtsBoard.describe(events) : `${b} ${w}`;
      list.appendChild(item);
    });
    tickClock();
  }

  function tickClock() {
    const clock = state && state.clock;
    $("clocks").hidden = !clock;
    if (!clock) return;
    const passed = (Date.now() - stamp) / 1000;
    for (const color of ["black", "white"]) {
      const running = clock.running && !state.committed[color] && state.seats[color] !== "bot";
      const left = Math.max(0, clock.left[color] - (running ? passed : 0));
      const m = Math.floor(left / 60), s = Math.floor(left % 60);
      $("clock-" + color).textContent = `${color} ${m}:${String(s).padStart(2, "0")}`;
      $("clock-" + color).classList.toggle("running", running);
    }
  }
  setInterval(tickClock, 250);

  function receive(next) {
    const before = shown;
    state = next;
    stamp = Date.now();
    if (cancel) { cancel(); cancel = null; }
    if (before && next.last && next.moves.length === before.moves.length + 1) {
      cancel = WtsBoard.animate($("board"), before.board, next.last, () => { cancel = null; render(); });
      $("status").textContent = next.words;
    } else {
      render();
    }
    shown = next;
  }

  function choose(square) {
    const color = chooser();
    if (!color || !socket) return;
    $("play-error").textContent = "";
    // At one screen the pointer still rests on the square just chosen: its
    // highlight would show it to the other player, so it stays off until the
    // pointer moves to another square.
    if (mine().length === 2) document.body.dataset.hiddenSquare = square.toUpperCase();
    socket.send(JSON.stringify({type: "move", color, square: square.toUpperCase(), turn: state.turn}));
  }

  $("board").addEventListener("pointerover", (event) => {
    const square = event.target.dataset && event.target.dataset.square;
    if (square && square !== document.body.dataset.hiddenSquare) delete document.body.dataset.hiddenSquare;
  });
  // A click while a turn is still being shown is refused, and says so.
  $("board").addEventListener("click", () => {
    if (document.body.dataset.animating === "1") {
      $("play-error").textContent = "The last turn is still being shown: click again in a moment.";
    }
  });

  $("rematch-button").addEventListener("click", async () => {
    try {
      const made = await fetch(`/api/games/${game}/rematch`, {
        method: "POST", headers: {authorization: `Bearer ${Object.values(tokens)[0]}`}});
      const data = await made.json();
      if (!made.ok) throw new Error(data.message);
      seats.add(data.game, data.tokens);
      location.assign(data.url);
    } catch (error) { $("play-error").textContent = error.message; }
  });

  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("move-input").value.trim();
    if (!SQUARE.test(value)) { $("play-error").textContent = "A square is a letter A-I and a digit 1-9, as E5."; return; }
    $("move-input").value = "";
    choose(value);
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // The game in the URL lets a proxy send every socket of one game to one process.
    socket = new WebSocket(`${scheme}//${location.host}/ws?game=${game}`);
    socket.addEventListener("open", () => {
      retry = 500;
      socket.send(JSON.stringify({type: "hello", version: PROTOCOL, game, tokens: Object.values(tokens)}));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") receive(message);
      else if (message.type === "error" && message.code === "no-game") {
        state = {over: true};  // no reconnecting to a game that is not there
        socket.close();
        home("No game has that address: it may have expired, or the link is mistyped.");
      } else if (message.type === "error") $("play-error").textContent = message.message;
    });
    socket.addEventListener("close", () => {
      socket = null;
      if (state && state.over) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  connect();
}

// ---- Learn -------------------------------------------------------------------------

async function learn() {
  show("learn");
  const {lessons} = await api("/api/lessons");
  let current = 0, cancel = null;
  const list = $("lesson-list");
  lessons.forEach((lesson, i) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#"; link.textContent = lesson.title;
    link.addEventListener("click", (event) => { event.preventDefault(); open(i); });
    item.appendChild(link);
    list.appendChild(item);
  });

  function open(i) {
    if (cancel) { cancel(); cancel = null; }
    current = i;
    const lesson = lessons[i];
    document.body.dataset.lesson = String(lesson.number);
    document.body.dataset.lessonDone = "0";
    $("lesson-title").textContent = `Lesson ${lesson.number} of ${lessons.length}: ${lesson.title}`;
    $("lesson-rule").textContent = lesson.rule;
    $("lesson-prompt").textContent = lesson.prompt;
    $("lesson-feedback").textContent = "";
    $("lesson-form").hidden = false;
    WtsBoard.draw($("lesson-board"), lesson.board, {}, attempt);
    $("lesson-prev").disabled = i === 0;
    $("lesson-next").disabled = i === lessons.length - 1;
  }

  async function attempt(square) {
    const lesson = lessons[current];
    try {
      const answer = await api(`/api/lessons/${lesson.number}`, {square: square.toUpperCase()});
      if (!answer.correct) { $("lesson-feedback").textContent = "Not that one. " + answer.hint; return; }
      $("lesson-form").hidden = true;
      cancel = WtsBoard.animate($("lesson-board"), lesson.board, answer.last, () => {
        cancel = null;
        const m = {win: [...answer.winning.black, ...answer.winning.white]};
        m.last = answer.last.collision ? [answer.last.collision] : [answer.last.black, answer.last.white];
        WtsBoard.draw($("lesson-board"), answer.board, m, null);
        // What happened, then the status only where it says more than whose turn it is.
        const ended = answer.words.startsWith("Turn ") ? "" : ` ${answer.words}.`;
        $("lesson-feedback").textContent = `${answer.explain} ${WtsBoard.describe(answer.last)}${ended}`;
        document.body.dataset.lessonDone = "1";
      });
    } catch (error) { $("lesson-feedback").textContent = error.message; }
  }

  $("lesson-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("lesson-input").value.trim();
    $("lesson-input").value = "";
    if (SQUARE.test(value)) attempt(value);
    else $("lesson-feedback").textContent = "A square is a letter A-I and a digit 1-9, as E5.";
  });
  $("lesson-prev").addEventListener("click", () => open(Math.max(0, current - 1)));
  $("lesson-next").addEventListener("click", () => open(Math.min(lessons.length - 1, current + 1)));
  $("lesson-retry").addEventListener("click", () => open(current));
  open(0);
}

// ---- Replay ------------------------------------------------------------------------

function replay() {
  show("replay");
  let frames = [], at = 0;

  function draw() {
    const frame = frames[at];
    const m = {win: [...frame.winning.black, ...frame.winning.white]};
    if (frame.last) m.last = frame.last.collision ? [frame.last.collision] : [frame.last.black, frame.last.white];
    WtsBoard.draw($("replay-board"), frame.board, m, null, frame.eggs);
    // Turns played so far, as the move list numbers them; the status names the next one.
    $("replay-turn").textContent = at ? `after turn ${at} of ${frames.length - 1}`
                                      : `the start (${frames.length - 1} turns)`;
    $("replay-status").textContent = frame.words;
    $("replay-words").textContent = frame.last ? `Turn ${at}: ${WtsBoard.describe(frame.last)}` : "";
    const list = $("replay-moves");
    list.textContent = "";
    frames.slice(1).forEach((f, i) => {
      const item = document.createElement("li");
      item.textContent = WtsBoard.describe(f.last);
      if (i + 1 === at) item.className = "current";
      list.appendChild(item);
    });
    document.body.dataset.replayAt = String(at);
  }

  async function load(text) {
    $("replay-error").textContent = "";
    try {
      const read = await api("/api/replay", text);
      frames = read.frames;
      const list = $("replay-headers");
      list.textContent = "";
      for (const [name, value] of Object.entries(read.headers)) {
        const term = document.createElement("dt"), detail = document.createElement("dd");
        term.textContent = name; detail.textContent = value;
        list.append(term, detail);
      }
      at = 0;
      draw();
    } catch (error) { $("replay-error").textContent = error.message; }
  }

  const go = (to) => { if (frames.length) { at = Math.max(0, Math.min(frames.length - 1, to)); draw(); } };
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => go(at - 1));
  $("replay-forward").addEventListener("click", () => go(at + 1));
  $("replay-last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") go(at - 1);
    if (event.key === "ArrowRight") go(at + 1);
  });
  $("replay-form").addEventListener("submit", (event) => { event.preventDefault(); load($("replay-text").value); });
  $("replay-file").addEventListener("change", async () => {
    const file = $("replay-file").files[0];
    if (file) load(await file.text());
  });
  const game = new URLSearchParams(location.search).get("game");
  if (game && /^[a-z2-9]{12}$/.test(game)) {
    fetch(`/api/games/${game}/record`).then((r) => r.text()).then((text) => {
      $("replay-text").value = text;
      load(text);
    });
  }
}

// ---- Accounts, profiles, ratings --------------------------------------------------

async function account() {
  show("account");
  const me = await session;
  $("logged-out").hidden = !!me;
  $("logged-in").hidden = !me;
  const say = (text) => { $("account-message").textContent = text; $("account-error").textContent = ""; };
  const fail = (error) => { $("account-error").textContent = error.message; };
  const submit = (form, act) => form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await act(new FormData(form)); } catch (error) { fail(error); }
  });
  if (me) {
    $("me-link").href = `/players/${me.name}`;
    $("me-link").textContent = me.name;
  }
  submit($("login-form"), async (data) => {
    const me = await api("/api/session", {name: data.get("name"), password: data.get("password")});
    location.assign(`/players/${me.name}`);
  });
  submit($("signup-form"), async (data) => {
    const me = await api("/api/account", {name: data.get("name"), password: data.get("password"),
                                          age_16_or_over: data.get("adult") === "on"});
    location.assign(`/players/${me.name}`);
  });
  submit($("password-form"), async (data) => {
    await api("/api/account/password", {current: data.get("current"), new: data.get("new")});
    $("password-form").reset();
    say("The password is changed; your other sessions have ended.");
  });
  submit($("delete-form"), async (data) => {
    await api("/api/account", {password: data.get("password")}, "DELETE");
    location.assign("/");
  });
  $("logout-button").addEventListener("click", () =>
    api("/api/session", undefined, "DELETE").then(() => location.assign("/account"), fail));
  $("logout-all-button").addEventListener("click", () =>
    api("/api/sessions", undefined, "DELETE").then(() => location.assign("/account"), fail));
}

function ratingText(r) {
  return `${Math.round(r.value)}${r.provisional ? "?" : ""} ± ${Math.round(r.deviation)}`;
}

// The rating after each rated game, as an SVG line (no inline style: the CSP forbids it).
function plot(history) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 400 160");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Rating after each rated game");
  const values = [1500, ...history.map((h) => h.value)];
  const low = Math.min(...values) - 20, high = Math.max(...values) + 20;
  const x = (i) => 40 + (350 * i) / Math.max(1, values.length - 1);
  const y = (v) => 150 - (140 * (v - low)) / (high - low);
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("class", "line");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.appendChild(line);
  for (const v of [low + 20, high - 20]) {
    const label = document.createElementNS(NS, "text");
    label.setAttribute("class", "axis");
    label.setAttribute("x", "2"); label.setAttribute("y", String(y(v) + 4));
    label.textContent = String(Math.round(v));
    svg.appendChild(label);
  }
  return svg;
}

async function profile(name) {
  show("profile");
  try {
    const p = await api(`/api/players/${encodeURIComponent(name)}`);
    $("profile-name").textContent = p.name;
    $("profile-rating").textContent = `Rating ${ratingText(p.rating)} after ${p.rating.games} rated games`;
    document.body.dataset.rating = String(p.rating.value);
    $("profile-plot").textContent = "";
    if (p.history.length) $("profile-plot").appendChild(plot(p.history));
    const body = $("profile-games");
    body.textContent = "";
    for (const g of p.games) {
      const row = document.createElement("tr");
      const cells = [g.game, g.color, g.opponent || "a guest", g.result, g.rated ? "yes" : "no"];
      for (const [i, text] of cells.entries()) {
        const cell = document.createElement("td");
        if (i === 0) {
          const link = document.createElement("a");
          link.href = g.replay; link.textContent = text;
          cell.appendChild(link);
        } else cell.textContent = text;
        row.appendChild(cell);
      }
      const record = document.createElement("td");
      const link = document.createElement("a");
      link.href = g.record; link.textContent = "download";
      record.appendChild(link);
      row.appendChild(record);
      body.appendChild(row);
    }
  } catch (error) { $("profile-error").textContent = error.message; }
}

async function leaderboard() {
  show("leaderboard");
  const list = $("leaderboard-list");
  const board = await api("/api/leaderboard");
  list.textContent = "";
  for (const p of board.players) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/players/${p.name}`; link.textContent = p.name;
    item.append(link, ` ${ratingText(p)} (${p.games} games)`);
    list.appendChild(item);
  }
}

// ---- The lobby ----------------------------------------------------------------------

async function lobby() {
  show("lobby");
  clockChoices();
  const me = await session;
  $("lobby-guest").hidden = !!me;
  $("seek-form").hidden = !me;
  const fail = (error) => { $("lobby-error").textContent = error.message; };
  const enter = (game) => { seats.add(game.game, game.tokens); location.assign(game.url); };
  let going = false;
  function matched(message) {
    if (going) return;
    going = true;
    const key = `wts-seek-${message.seek}`;
    const token = localStorage.getItem(key);
    localStorage.removeItem(key);
    // Posted from another browser: its seat is there; here, the game is watched.
    enter({game: message.game, url: message.url, tokens: token ? {[message.color]: token} : {}});
  }

  function item(text, button, act) {
    const li = document.createElement("li");
    li.append(text + " ");
    if (button) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = button;
      b.addEventListener("click", () => act().catch(fail));
      li.appendChild(b);
    }
    return li;
  }

  function draw(view) {
    // A seek of this player's was played (its news may have been missed): go.
    if (view.matched && view.matched.length) matched(view.matched[0]);
    const list = $("seek-list");
    list.textContent = "";
    for (const s of view.seeks) {
      const clock = s.clock ? `${s.clock.seconds} s a ${s.clock.kind}` : "no clock";
      const range = s.range[0] !== null || s.range[1] !== null ? `, ratings ${s.range[0] ?? "any"}-${s.range[1] ?? "any"}` : "";
      const text = `${s.by} (${s.rating}) plays ${s.color === "random" ? "either colour" : s.color}, ${clock}, ` +
                   `${s.rated ? "rated" : "casual"}${range}${s.to ? `, a challenge to ${s.to}` : ""}`;
      const mine = me && s.by === me.name;
      const li = item(text, me ? (mine ? "Cancel" : "Accept") : null, mine
        ? () => api(`/api/seeks/${s.id}`, undefined, "DELETE")
        : () => api(`/api/seeks/${s.id}/accept`, {}).then(enter));
      li.dataset.seek = s.id;
      list.appendChild(li);
    }
    if (!view.seeks.length) list.appendChild(item("No seeks yet.", null));
    const live = $("live-list");
    live.textContent = "";
    for (const g of view.live) {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/game/${g.game}`;
      link.textContent = `${g.players.black || "a guest"} vs ${g.players.white || "a guest"}${g.rated ? " (rated)" : ""}`;
      li.appendChild(link);
      live.appendChild(li);
    }
    document.body.dataset.seeks = String(view.seeks.length);
  }

  $("seek-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData($("seek-form"));
    const body = {color: data.get("color"), clock: clockChoice(data.get("clock")), rated: data.get("rated") === "on"};
    if (data.get("min")) body.min_rating = Number(data.get("min"));
    if (data.get("max")) body.max_rating = Number(data.get("max"));
    if (data.get("to")) body.to = data.get("to");
    try {
      // The seat token of the game the seek will make is this answer's alone:
      // kept for the browser's lobby pages, until the seek is played.
      const posted = await api("/api/seeks", body);
      localStorage.setItem(`wts-seek-${posted.id}`, posted.token);
      $("lobby-error").textContent = "";
    } catch (error) { fail(error); }
  });

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws?lobby=1`);
  socket.addEventListener("open", () => socket.send(JSON.stringify({type: "lobby", version: PROTOCOL})));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") draw(message);
    else if (message.type === "matched") matched(message);
    else if (message.type === "error") fail(new Error(message.message));
  });
}

// ---- Routes ------------------------------------------------------------------------

function route() {
  const path = location.pathname;
  let match;
  if ((match = path.match(/^\/game\/([a-z2-9]{12})$/))) play(match[1]);
  else if ((match = path.match(/^\/join\/([A-Za-z2-9]{6})$/))) join(match[1].toUpperCase());
  else if (path === "/learn") learn();
  else if (path === "/replay") replay();
  else if (path === "/account") account();
  else if (path === "/leaderboard") leaderboard();
  else if (path === "/lobby") lobby();
  else if (path.startsWith("/join/")) home("That is not a join code: a code is six letters and digits, as ABC234.");
  else if (path.startsWith("/game/")) home("No game has that address: a game's address ends in twelve letters and digits.");
  else if ((match = path.match(/^\/players\/([A-Za-z0-9_-]{3,20})$/))) profile(match[1]);
  else home();
}

route();
