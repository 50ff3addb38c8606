// The board as SVG, drawn from a view ({board, eggs, winning, last}), and a
// turn animated in the order the engine reports its events.
"use strict";

const WtsBoard = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const FILES = "ABCDEFGHI";
  const CELL = 40, MARGIN = 24, SIZE = MARGIN * 2 + CELL * 9;
  // Each step of a turn stays this long; shorter for people who ask for less motion.
  const STEP_MS = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 60 : 320;

  const squareName = (index) => FILES[index % 9] + String(Math.floor(index / 9) + 1);
  const squareIndex = (name) => (Number(name[1]) - 1) * 9 + FILES.indexOf(name[0].toUpperCase());
  const center = (index) => [MARGIN + (index % 9) * CELL + CELL / 2,
                             MARGIN + (8 - Math.floor(index / 9)) * CELL + CELL / 2];

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  function piece(group, index, kind, extra) {
    const [x, y] = center(index);
    const cls = "piece " + kind + (extra ? " " + extra : "");
    if (kind === "x") {
      el("circle", {cx: x, cy: y, r: CELL * 0.4, class: cls}, group);
    } else if (kind === "o") {
      el("circle", {cx: x, cy: y, r: CELL * 0.38, class: cls}, group);
    } else if (kind === "e") {
      el("ellipse", {cx: x, cy: y, rx: CELL * 0.24, ry: CELL * 0.31, class: cls}, group);
    }
  }

  // Draw `board` (81 characters, A1 first) into `container`; `marks` maps a
  // class name ("last", "win", "captured", "hatched", "dissolved", "mine") to squares.
  // `eggs`, oldest first, are numbered by age: egg 1 hatches next.
  function draw(container, board, marks, onPick, eggs) {
    container.textContent = "";
    const svg = el("svg", {viewBox: `0 0 ${SIZE} ${SIZE}`, role: "grid",
                           "aria-label": "the board", class: "board-svg"}, container);
    el("rect", {x: MARGIN, y: MARGIN, width: CELL * 9, height: CELL * 9, class: "wood"}, svg);
    for (let i = 0; i < 9; i++) {
      const t = el("text", {x: MARGIN + i * CELL + CELL / 2, y: SIZE - 6, class: "coord"}, svg);
      t.textContent = FILES[i];
      const r = el("text", {x: 10, y: MARGIN + (8 - i) * CELL + CELL / 2 + 4, class: "coord"}, svg);
      r.textContent = String(i + 1);
    }
    const marked = {};
    for (const [name, squares] of Object.entries(marks || {})) {
      for (const sq of squares || []) (marked[squareIndex(sq)] ||= []).push(name);
    }
    for (let index = 0; index < 81; index++) {
      const [x, y] = center(index);
      const name = squareName(index);
      const classes = ["cell"].concat((marked[index] || []).map((m) => "mark-" + m));
      const cell = el("rect", {x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                               class: classes.join(" "), "data-square": name,
                               "data-piece": board[index], "aria-label": name}, svg);
      if (onPick && board[index] === ".") {
        cell.classList.add("pickable");
        // Reached with Tab and played with Enter or Space, as a button would be.
        cell.setAttribute("tabindex", "0");
        cell.setAttribute("role", "button");
        cell.addEventListener("click", () => onPick(name));
        cell.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onPick(name); }
        });
      }
      piece(svg, index, board[index], (marked[index] || []).map((m) => "piece-" + m).join(" "));
      for (const m of marked[index] || []) {
        if (m === "win") el("circle", {cx: x, cy: y, r: CELL * 0.46, class: "ring-win"}, svg);
        if (m === "last") el("rect", {x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4,
                                      height: CELL - 4, class: "ring-last"}, svg);
        if (m === "captured") {
          el("path", {d: `M${x - 12} ${y - 12}L${x + 12} ${y + 12}M${x + 12} ${y - 12}L${x - 12} ${y + 12}`,
                      class: "cross"}, svg);
        }
        if (m === "mine") el("circle", {cx: x, cy: y, r: CELL * 0.3, class: "ring-mine"}, svg);
      }
    }
    (eggs || []).forEach((sq, age) => {
      const [x, y] = center(squareIndex(sq));
      const label = el("text", {x, y: y + 5, class: "egg-age", "data-egg": sq}, svg);
      label.textContent = String(age + 1);
    });
    return svg;
  }

  // A turn's events in words, one sentence a step (the animation's captions).
  const say = {
    placed: (last) => (last.collision ? `Both chose ${last.collision}: an egg`
                                      : `Black ${last.black}, White ${last.white}`),
    captures: (caps) => caps.map((c) => `${c.color[0].toUpperCase()}${c.color.slice(1)} captures `
                                        + c.squares.join(" ")).join("; "),
    dissolved: (squares) => `Egg ${squares.join(" ")} dissolves`,
    hatched: (wave) => wave.map((h) => `${h.square} hatches ${h.color}`).join("; "),
  };

  // The whole turn in words, in the engine's order.
  function describe(last) {
    const words = [say.placed(last)];
    const rounds = Math.max(-1, ...last.captures.map((c) => c.round));
    for (let round = 0; round <= rounds; round++) {
      const caps = last.captures.filter((c) => c.round === round);
      if (caps.length) words.push(say.captures(caps));
      if (caps.length && round === 0 && last.dissolved.length) words.push(say.dissolved(last.dissolved));
      const wave = last.hatched.filter((h) => h.wave === round + 1);
      if (wave.length) words.push(say.hatched(wave));
    }
    return words.join(". ") + ".";
  }

  // The positions a turn passes through, rebuilt from its events:
  // placement (or the collision's egg), then each round's captures, the
  // dissolved eggs, and each hatching wave.
  function steps(before, last) {
    const frames = [];
    const cells = before.split("");
    if (last.collision) {
      cells[squareIndex(last.collision)] = "e";
      frames.push({board: cells.join(""), marks: {last: [last.collision]}, say: say.placed(last)});
      return frames;
    }
    cells[squareIndex(last.black)] = "x";
    cells[squareIndex(last.white)] = "o";
    frames.push({board: cells.join(""), marks: {last: [last.black, last.white]},
                 say: say.placed(last)});
    const rounds = Math.max(-1, ...last.captures.map((c) => c.round));
    for (let round = 0; round <= rounds; round++) {
      const caps = last.captures.filter((c) => c.round === round);
      if (!caps.length) continue;
      const gone = caps.flatMap((c) => c.squares);
      frames.push({board: cells.join(""), marks: {captured: gone}, say: say.captures(caps)});
      for (const sq of gone) cells[squareIndex(sq)] = ".";
      if (round === 0 && last.dissolved.length) {
        frames.push({board: cells.join(""), marks: {dissolved: last.dissolved},
                     say: say.dissolved(last.dissolved)});
        for (const sq of last.dissolved) cells[squareIndex(sq)] = ".";
      }
      const wave = last.hatched.filter((h) => h.wave === round + 1);
      if (wave.length) {
        for (const h of wave) cells[squareIndex(h.square)] = h.color === "black" ? "x" : "o";
        frames.push({board: cells.join(""), marks: {hatched: wave.map((h) => h.square)},
                     say: say.hatched(wave)});
      }
    }
    return frames;
  }

  // Play a turn's steps into `container`, then call `done`. Returns a cancel function.
  function animate(container, before, last, done) {
    const frames = steps(before, last);
    let i = 0, timer = null;
    document.body.dataset.animating = "1";
    const next = () => {
      if (i >= frames.length) {
        document.body.dataset.animating = "0";
        done();
        return;
      }
      const frame = frames[i++];
      draw(container, frame.board, frame.marks, null);
      container.dataset.step = frame.say;
      timer = setTimeout(next, STEP_MS);
    };
    next();
    return () => { clearTimeout(timer); document.body.dataset.animating = "0"; };
  }

  return {draw, animate, steps, describe, squareName, squareIndex};
})();
