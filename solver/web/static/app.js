// The kosolve page: draws what the API answers (docs/web.md) and computes
// no value itself.  Served by `kosolve serve`, it asks the API for each
// position; inlined by `kosolve report`, it reads the answers precomputed
// into the page (the element #kosolve-data) and needs no server.
"use strict";
(function () {
  const API = "api/v1/";
  const embedded = document.getElementById("kosolve-data");
  const REPORT = embedded ? JSON.parse(embedded.textContent) : null;
  const SEATS = ["forehand", "dealer"];
  const SYMBOLS = { H: "♥", D: "♦", S: "♠", C: "♣" };
  const SMALL_LOSS = 6; // thirds: up to 2 points is a small loss
  // This page load's id: the server drops a click's position still waiting
  // for the solver when a newer click of the same page comes (docs/web.md).
  const CLIENT = Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join("");

  // An answer the server dropped for a newer request of this page: no error.
  class Superseded extends Error {}

  const state = {
    name: "",
    deal: null, // the deal file's JSON object (live mode)
    fileIndex: null, // which of the served files is shown; null for any other deal
    filePlay: [], // the file's play, canonical names
    line: [], // the cards of the line shown, the file's play or the user's
    cursor: 0, // how many cards of the line are played
    answer: null, // the position answer shown
    review: null,
    exchange: null,
    exchangeName: "", // the name of the deal as dealt whose exchange table is shown
    row: null, // the number of the table's row on the board, when one was opened
    game: null, // the last answer of the game against kosolve on the page
    gamePending: false, // whether a move of the game is with the server
    layAway: new Set(), // the cards of the user's hand selected for his lay-away
    pileOpen: false, // whether the user unfolded his pile under his hand
    rules: null, // the rule options the deal shown is played by (a game's); null for the server's
    cache: new Map(),
    token: 0, // the latest position asked for
    dealId: 0, // the latest deal loaded
  };

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // Thirds as exact points: 109 -> "36⅓", as the text report writes them.
  function points(thirds) {
    const sign = thirds < 0 ? "−" : "";
    const whole = Math.floor(Math.abs(thirds) / 3);
    const rest = Math.abs(thirds) % 3;
    if (!rest) return sign + whole;
    return sign + (whole || "") + (rest === 1 ? "⅓" : "⅔");
  }

  function lossClass(loss) {
    return loss === 0 ? "best" : loss <= SMALL_LOSS ? "loss-small" : "loss-big";
  }

  function isTarock(name) {
    return name === "Sk" || !(name[0] in SYMBOLS);
  }

  function cardView(name, extra) {
    const tarock = isTarock(name);
    const red = !tarock && (name[0] === "H" || name[0] === "D");
    let classes = ["card", tarock ? "tarock" : "", red ? "red" : "", (extra && extra.cls) || ""].join(" ");
    const rank = tarock ? name : name.slice(1);
    if (rank.length > 3) classes += " long";
    const pip = tarock ? (name === "Sk" ? "Sküs" : "tarock") : SYMBOLS[name[0]];
    const node = el("div", { class: classes, "data-card": name, title: name }, el("span", { class: "rank" }, rank),
      el("span", { class: "pip" }, pip));
    return node;
  }

  // Replace the children of ``node``: arrays flattened, null left out.
  function fill(node, ...children) {
    node.replaceChildren(...children.flat(Infinity).filter((child) => child !== null && child !== undefined));
    return node;
  }

  // A panel of the side column: hidden when it has nothing to show.
  function panel(box, ...children) {
    fill(box, ...children);
    box.className = "panel";
    box.hidden = box.childNodes.length === 0;
  }

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : "s"}`;
  }

  function showError(message) {
    const box = $("error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function busy(on) {
    $("busy").hidden = !on;
  }

  function loading(on) {
    $("loading").hidden = !on;
  }

  // ---- where the answers come from -------------------------------------

  async function post(path, body, headers) {
    const response = await fetch(API + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (response.status === 409) throw new Superseded(data.error);
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    return data;
  }

  function onFilePlay(line) {
    return line.length <= state.filePlay.length && line.every((card, i) => card === state.filePlay[i]);
  }

  async function position(line) {
    const key = line.join(" ");
    if (state.cache.has(key)) return state.cache.get(key);
    let answer;
    if (REPORT) {
      if (!onFilePlay(line)) throw new Error("this report holds the file's play only; serve the file to try other cards");
      answer = REPORT.positions[line.length];
    } else {
      answer = await post("position", withRules({ deal: state.deal, play: line }, state.rules), { "X-Kosolve-Client": CLIENT });
    }
    state.cache.set(key, answer);
    return answer;
  }

  // ---- loading -----------------------------------------------------------

  // A request's body with the rule options ``rules`` (a game's), when given:
  // else the server's rules apply.
  function withRules(body, rules) {
    return rules ? { ...body, rules } : body;
  }

  function playable(deal) {
    return !deal.dealt || (deal.contract && deal.declarer && deal.exchange);
  }

  // What the first drawing of ``deal`` needs, asked before the page changes:
  // for a deal with a play position the position after the file's play (the
  // server checks the whole file) and at its start; for a deal as dealt
  // without a bid its exchange table.
  async function firstAnswers(deal, rules) {
    if (!playable(deal)) return { start: null, whole: null, exchange: await post("exchange", withRules({ deal }, rules)) };
    const whole = await post("position", withRules({ deal }, rules));
    const start = whole.view.play.length ? await post("position", withRules({ deal, play: [] }, rules)) : whole;
    return { start, whole, exchange: null };
  }

  // Load a deal all or nothing: the page changes once the server has
  // answered for it, so that a deal it refuses leaves the board, the header,
  // the file list and the state as they were, and shows its error once.
  // ``source.file`` is the index of a served file; ``source.row`` the row of
  // the exchange table shown (``source.exchange``) that the deal plays;
  // ``source.rules`` the rule options it is played by (a game's), else the server's.
  async function loadDeal(name, deal, source = {}) {
    const token = ++state.dealId;
    loading(true);
    let first;
    try {
      first = await firstAnswers(deal, source.rules);
    } catch (error) {
      if (token === state.dealId) {
        loading(false);
        selectFile(state.fileIndex);
        showError(error.message);
      }
      return false;
    }
    if (token !== state.dealId) return false;
    loading(false);
    commit(name, deal, source, first);
    return true;
  }

  function commit(name, deal, source, first) {
    showError("");
    state.token++; // an answer still coming for the previous deal is not drawn
    busy(false);
    state.name = name;
    state.deal = deal;
    $("game").hidden = true;
    state.fileIndex = source.file === undefined ? null : source.file;
    state.rules = source.rules || null;
    selectFile(state.fileIndex);
    state.cache = new Map();
    state.review = null;
    state.exchange = source.exchange || first.exchange;
    state.exchangeName = source.exchange ? state.exchangeName : name;
    state.row = source.row || null;
    state.answer = null;
    state.filePlay = [];
    state.line = [];
    state.cursor = 0;
    $("name").textContent = name;
    document.title = `kosolve: ${name}`;
    $("welcome").hidden = true;
    const token = state.dealId;
    if (first.whole) {
      // The file's play in canonical names (a file may spell cards otherwise).
      state.filePlay = first.whole.view.play;
      state.cache.set(state.filePlay.join(" "), first.whole);
      state.cache.set("", first.start);
      state.line = state.filePlay.slice();
      state.answer = first.start;
      draw();
      if (state.filePlay.length) {
        post("review", withRules({ deal }, state.rules)).then((review) => {
          if (token !== state.dealId) return;
          state.review = review;
          drawTimeline();
        }, (error) => {
          if (token === state.dealId) showError(error.message);
        });
      }
    } else {
      $("board").hidden = true;
      $("side").hidden = true;
      $("timeline").hidden = true;
    }
    if (!deal.dealt) {
      $("exchange").hidden = true;
    } else if (state.exchange) {
      drawExchange();
    } else {
      $("exchange").hidden = false;
      fill($("exchange"), el("div", { class: "panel" }, "computing the exchange table…"));
      post("exchange", withRules({ deal }, state.rules)).then((answer) => {
        if (token !== state.dealId) return;
        state.exchange = answer;
        drawExchange();
      }, (error) => {
        if (token === state.dealId) showError(error.message);
      });
    }
  }

  // Show the served file ``index`` as chosen in the list, or "another deal":
  // choosing any file there then loads it, the one shown before a pasted deal too.
  function selectFile(index) {
    $("files").value = index === null ? "" : String(index);
  }

  function loadText(name, text) {
    let deal;
    try {
      deal = JSON.parse(text);
    } catch (error) {
      showError(`${name}: not JSON: ${error.message}`);
      return;
    }
    if (typeof deal !== "object" || deal === null || Array.isArray(deal)) {
      showError(`${name}: expected a JSON object (a deal file)`);
      return;
    }
    loadDeal(name, deal);
  }

  function loadFile(file) {
    file.text().then((text) => loadText(file.name, text), (error) => showError(`${file.name}: ${error.message}`));
  }

  async function randomDeal() {
    const seedText = $("seed").value.trim();
    let answer;
    try {
      answer = await post("random", seedText === "" ? {} : { seed: Number(seedText) });
    } catch (error) {
      showError(error.message);
      return;
    }
    if (await loadDeal(`random deal, seed ${answer.seed}`, answer.deal)) $("seed").value = answer.seed;
  }

  // The position at trick 1 of row ``number`` (from 1) of the exchange table
  // shown: its declarer, contract, talon cards taken and best lay-away, on
  // the board to play like any deal, the table kept beside it.
  function openRow(number) {
    const answer = state.exchange.exchange;
    const row = answer.exchange_table[number - 1];
    const deal = { version: 1, dealt: answer.dealt, contract: row.contract, declarer: row.declarer,
      exchange: { take: row.take, lay_away: row.lay_away } };
    const take = row.take.length ? `take ${row.take.join(" ")}` : "no talon cards";
    loadDeal(`${state.exchangeName}, row ${number}: ${row.contract} by the ${row.declarer}, ${take}`, deal,
      { exchange: state.exchange, row: number, rules: state.rules });
  }

  // ---- moving along the line -----------------------------------------------

  async function show() {
    const token = ++state.token;
    const line = state.line.slice(0, state.cursor);
    busy(true);
    try {
      const answer = await position(line);
      if (token !== state.token) return;
      state.answer = answer;
      showError("");
      draw();
      // The position in the address, to share as a link (docs/web.md).
      if (!REPORT && answer.notation) history.replaceState(null, "", `#p=${encodeURIComponent(answer.notation)}`);
    } catch (error) {
      if (token === state.token && !(error instanceof Superseded)) showError(error.message);
    } finally {
      if (token === state.token) busy(false);
    }
  }

  function go(cursor) {
    if (cursor < 0 || cursor > state.line.length || cursor === state.cursor) return;
    state.cursor = cursor;
    show();
  }

  function play(card) {
    if (state.line[state.cursor] !== card) {
      const line = state.line.slice(0, state.cursor).concat([card]);
      if (REPORT && !onFilePlay(line)) {
        showError(`${card}: this report holds the file's play only; serve the file (kosolve serve) to try other cards`);
        return;
      }
      state.line = line;
    }
    go(state.cursor + 1);
  }

  function jump(index) {
    state.line = state.filePlay.slice();
    state.cursor = -1; // go() must redraw even when the cursor stays
    go(index);
  }

  function bestLine() {
    // A report holds the file's play only, not the positions of other lines.
    if (REPORT || !state.answer || !state.answer.report.line.length) return;
    state.line = state.line.slice(0, state.cursor).concat(state.answer.report.line);
    go(state.line.length);
  }

  // ---- drawing -------------------------------------------------------------

  function draw() {
    const { report, view } = state.answer;
    $("board").hidden = false;
    $("side").hidden = false;
    const moves = new Map(view.moves.map((m) => [m.card, m]));
    const trick = view.over ? "the hand is over" : `trick ${view.trick}, the ${view.to_move} to ${view.table ? "play" : "lead"}`;
    const result = report.result ? `, ${report.result}` : "";
    fill($("status"), `${view.contract}, declarer the ${view.declarer}; ${trick} · the declarer's value `,
      el("span", { class: "status-value" }, `${points(report.value.thirds)}${result}`));
    for (const seat of SEATS) drawSeat(seat, view, moves);
    drawTable(view);
    $("start").disabled = state.cursor === 0;
    $("undo").disabled = state.cursor === 0;
    $("redo").disabled = state.cursor >= state.line.length;
    $("end").disabled = state.cursor >= state.line.length;
    $("best").disabled = REPORT !== null || !report.line.length;
    const played = state.line.slice(0, state.cursor);
    // What the page shows, for the browser tests and anyone scripting it.
    $("board").dataset.line = played.join(" ");
    $("board").dataset.name = state.name;
    const where = onFilePlay(played)
      ? `after ${played.length} of the file's ${state.filePlay.length} cards`
      : `your line: ${plural(played.length, "card")}, off the file's play`;
    const how = REPORT
      ? "click the file's next card; this report holds the file's play only, serve the file to try other cards"
      : "click a card to play it";
    $("where").textContent = `${where} · ← → step, Home/End, ${how}`;
    drawValue(report, view);
    drawFeasible(report);
    drawHeld(report);
    drawSettlement(report);
    drawTimeline();
  }

  // Whether a legal card can be played here: any, served; in a report only
  // the next card of the file's play, whose position the report holds.
  function canPlay(name) {
    return !REPORT || (onFilePlay(state.line.slice(0, state.cursor)) && state.filePlay[state.cursor] === name);
  }

  function drawSeat(seat, view, moves) {
    const box = $(`seat-${seat}`);
    const counted = view.counted[seat];
    const role = seat === view.declarer ? `${seat} (declarer)` : seat;
    const what = view.piles_known ? `${points(counted.thirds)} points counted` : `${points(counted.thirds)} in tricks`;
    const suits = view.hands[seat].filter((group) => group.cards.length).map((group) =>
      el("div", { class: "suit", "data-suit": group.suit }, group.cards.map((name) => {
        const move = seat === view.to_move ? moves.get(name) : undefined;
        if (!move) return cardView(name, { cls: seat === view.to_move ? "illegal" : "" });
        const playing = canPlay(name);
        const node = cardView(name, { cls: `legal ${lossClass(move.loss)}${playing ? " playable" : ""}` });
        node.dataset.thirds = move.thirds;
        node.dataset.loss = move.loss;
        const cost = move.loss === 0 ? "best" : `−${points(move.loss)}`;
        node.title = `${name}: the declarer ends with ${points(move.thirds)} points (${cost})`;
        node.append(el("span", { class: "badge" }, points(move.thirds), el("br"), cost));
        if (!playing) return node;
        node.tabIndex = 0;
        node.setAttribute("role", "button");
        node.addEventListener("click", () => play(name));
        node.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            play(name);
          }
        });
        return node;
      })));
    box.className = `seat${seat === view.to_move ? " to-move" : ""}`;
    fill(box,
      el("div", { class: "seat-head" }, el("strong", {}, role),
        el("span", { "data-counted": counted.thirds }, `${what}, ${plural(counted.tricks, "trick")}`)),
      el("div", { class: "suits" }, suits.length ? suits : el("span", {}, "no cards left")));
  }

  function drawTable(view) {
    const parts = [];
    if (view.table) {
      parts.push(el("div", { class: "trick" }, el("span", { class: "label" }, `${view.table.by} led`),
        cardView(view.table.card)));
    }
    const last = view.tricks[view.tricks.length - 1];
    if (last) {
      parts.push(el("div", { class: "trick" },
        el("span", { class: "label" }, `trick ${last.number}: ${last.winner} took`),
        last.cards.map((name) => cardView(name, { cls: "small" }))));
    }
    fill($("table"), ...parts);
  }

  function drawValue(report, view) {
    const result = report.result ? el("span", { class: report.result }, report.result) : "tricks only, no piles given";
    const label = view.over ? "Result for the declarer" : "Value for the declarer";
    $("value").className = "value panel";
    $("value").dataset.thirds = report.value.thirds;
    fill($("value"),
      el("h2", {}, label),
      el("div", {}, el("span", { class: "big" }, `${points(report.value.thirds)} points`),
        ` (${report.value.thirds} thirds, counted as ${report.value.points}) · `, result),
      report.net_score ? el("div", {}, `net score ${report.net_score.score}`) : null);
    // Trick by trick, each card with its player, as the text report writes the line.
    const tricks = view.line.map((trick, i) => el("tr", { "data-trick": trick.number },
      el("th", {}, `trick ${trick.number}`),
      el("td", {}, trick.cards.map((card, j) => el("span", { class: "played", "data-card": card },
        `${j === 0 ? trick.leader : SEATS.find((seat) => seat !== trick.leader)} `, el("b", {}, card),
        i === 0 && j === 0 && view.table ? " (on the table)" : ""))),
      el("td", {}, trick.winner ? `${trick.winner} takes ${points(trick.thirds)}` : "")));
    panel($("line"), tricks.length ? [el("h2", {}, "An optimal line"), el("table", { id: "line-table" }, tricks)] : null);
  }

  function drawFeasible(report) {
    const box = $("feasible");
    if (!report.feasible) {
      panel(box);
      return;
    }
    const goals = [];
    for (const seat of SEATS) for (const goal of Object.keys(report.feasible[seat])) if (!goals.includes(goal)) goals.push(goal);
    const cell = (seat, goal) => {
      if (!(goal in report.feasible[seat])) return el("td", {}, "—");
      const value = report.feasible[seat][goal];
      const text = value === null ? "unknown" : value ? "yes" : "no";
      return el("td", { class: value ? "yes" : "no", "data-seat": seat, "data-goal": goal }, text);
    };
    panel(box, el("h2", {}, "What each player can still force"),
      el("table", { id: "feasible-table" },
        el("tr", {}, el("th", {}, ""), SEATS.map((seat) => el("th", {}, seat))),
        goals.map((goal) => el("tr", {}, el("th", {}, goal.replaceAll("_", " ")), SEATS.map((seat) => cell(seat, goal))))));
  }

  function drawHeld(report) {
    const box = $("held");
    if (!report.held) {
      panel(box);
      return;
    }
    panel(box, el("h2", {}, "Held at trick 1"),
      SEATS.map((seat) => el("div", {}, `${seat}: ${report.held[seat].map((n) => n.replaceAll("_", " ")).join(", ") || "none"}`)));
  }

  function drawSettlement(report) {
    const box = $("settlement");
    const settlement = report.settlement;
    if (!settlement) {
      panel(box);
      return;
    }
    panel(box, el("h2", {}, "Settlement"),
      el("div", {}, `${settlement.contract}, declared by the ${settlement.declarer}: ${points(settlement.declarer_thirds)} points`),
      el("table", { id: "settlement-table" },
        settlement.items.map((item) => el("tr", {}, el("td", {}, (item.points > 0 ? "+" : "") + item.points),
          el("td", {}, item.to), el("td", {}, item.why)))),
      el("div", { "data-totals": JSON.stringify(settlement.totals) },
        SEATS.map((seat) => `${seat} ${settlement.totals[seat] > 0 ? "+" : ""}${settlement.totals[seat]}`).join(", ")));
  }

  // When an announcement stopped being makeable, as the text report says it.
  function goalFate(goal) {
    if (goal.lost_at) {
      return `lost with card ${goal.lost_at.play_index + 1}, the ${goal.lost_at.player}'s ${goal.lost_at.card}`;
    }
    if (goal.makeable_at_start === null) return "unknown (it depends on the declarer's 16 cards at trick 1)";
    return goal.makeable_at_start ? "makeable to the end" : "never makeable";
  }

  // A mean loss in thirds as points, two decimals.
  function meanPoints(thirds) {
    return (thirds / 3).toFixed(2);
  }

  // A card's two verdicts: by what its player knew (the worlds of his view) and double dummy.
  function verdictLine(card) {
    if (!card) return null;
    if (card.verdict === "forced" || card.verdict === "best") {
      return el("span", { class: `verdict ${card.verdict}`, "data-verdict": card.verdict }, card.verdict);
    }
    const knew = card.knew_loss_thirds > 0 ? `knew −${meanPoints(card.knew_loss_thirds)} (best ${card.best.join(" ")})` : "knew: best";
    const dd = card.dd_loss_thirds > 0 ? `DD −${points(card.dd_loss_thirds)}` : "DD: best";
    const worlds = card.exact ? `${card.worlds} worlds` : `${card.samples} of ${card.worlds} worlds`;
    return el("span", { class: `verdict ${card.verdict}`, "data-verdict": card.verdict,
      title: `judged over ${worlds}` }, `${card.verdict}: ${knew} · ${dd}`);
  }

  // The decisions before the play (kosolve review): each with its choice, the best option by what
  // its player knew and double dummy, both losses in game points and the verdict.
  // The decisions before the play, judged; ``yours`` for one player's own
  // (the game's end): no player column, and "you" in the heading.
  function decisionTable(decisions, id, yours = false) {
    if (!decisions || !decisions.length) return null;
    const gp = (value) => String(Number(value.toFixed(2)));
    // Many options may tie (lay-aways): the first three, and how many more.
    const some = (options) => options.slice(0, 3).join(" · ") + (options.length > 3 ? ` (+${options.length - 3})` : "");
    const what = (d) => d.kind === "kontra" ? `kontra ${d.about}` : d.kind.replace("_", " ")
      + (d.round ? ` (${d.round})` : "");
    const names = [...(yours ? [] : ["player"]), "decision", "chosen", `best by what ${yours ? "you" : "he"} knew`, "loss",
      "best DD", "DD loss", "verdict"];
    // The best DD column goes first on a narrow screen (app.css): the losses matter more.
    const head = el("tr", {}, names.map((name) => el("th", { class: name === "best DD" ? "dd-best" : "" }, name)));
    const rows = decisions.map((d) => el("tr", { "data-decision": d.index, "data-kind": d.kind, "data-seat": d.seat,
      "data-verdict": d.verdict, title: d.exact ? `every one of ${d.worlds} worlds` : `${d.samples} of ${d.worlds} worlds` },
    yours ? null : el("td", {}, d.seat), el("td", {}, what(d)), el("td", {}, d.choice),
    el("td", { title: d.best.join(" · ") }, some(d.best)), el("td", { "data-loss": d.knew_loss_points }, d.knew_loss_points > 0 ? `−${gp(d.knew_loss_points)}` : "—"),
    el("td", { class: "dd-best", title: d.dd_best.join(" · ") }, some(d.dd_best)), el("td", { "data-loss": d.dd_loss_points }, d.dd_loss_points > 0 ? `−${d.dd_loss_points}` : "—"),
    el("td", {}, el("span", { class: `verdict ${d.verdict}` }, d.verdict))));
    return el("div", { class: "decisions" }, el("h3", {}, "Decisions before the play (game points)"),
      el("table", { id }, head, rows));
  }

  function knewSummary(knew) {
    const percent = (share) => share === null ? "–" : `${Math.round(100 * share)}%`;
    return el("div", { class: "knew-summary" }, SEATS.map((seat) => {
      const p = knew.players[seat];
      return el("div", { "data-seat": seat },
        `${seat}: ${p.judged} cards judged; best by what he knew ${percent(p.knew_accuracy)},`
        + ` double dummy ${percent(p.dd_accuracy)}; lost ${meanPoints(p.knew_loss_thirds)} by what he knew,`
        + ` ${points(p.dd_loss_thirds)} double dummy; ${p.mistake} mistake${p.mistake === 1 ? "" : "s"},`
        + ` ${p.unlucky} unlucky, ${p.lucky} lucky`);
    }));
  }

  function drawTimeline() {
    const box = $("timeline");
    if (!state.filePlay.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const review = state.review && state.review.report;
    const cards = review && review.postmortem;
    const lost = new Map();
    if (review) {
      for (const goal of review.postmortem_summary.goals) {
        if (!goal.lost_at) continue;
        const list = lost.get(goal.lost_at.play_index) || [];
        list.push(`${goal.what.replaceAll("_", " ")} (${goal.by}) no longer makeable`);
        lost.set(goal.lost_at.play_index, list);
      }
    }
    const played = state.line.slice(0, state.cursor);
    const current = onFilePlay(played) ? played.length : null;
    const knew = state.review && state.review.knew;
    const verdicts = new Map(knew ? knew.cards.map((card) => [card.index, card]) : []);
    const steps = el("div", { class: "ttrick" }, el("div", { class: "n" }, "before play"),
      el("button", { type: "button", class: `step${current === 0 ? " current" : ""}`, "data-index": 0,
        onclick: () => jump(0) }, "start", review && review.postmortem.length ? ` · ${points(review.postmortem[0].before)}` : ""));
    const tricks = [];
    state.filePlay.forEach((name, i) => {
      const judged = cards ? cards[i] : null;
      const classes = ["step", judged && judged.loss > 0 ? "mistake" : "", current === i + 1 ? "current" : ""];
      const text = judged
        ? `${judged.player} ${name} → ${points(judged.after)}${judged.loss > 0 ? ` (−${points(judged.loss)}; better ${judged.best.join(" ")})` : ""}`
        : name;
      const step = el("button", { type: "button", class: classes.join(" "), "data-index": i + 1,
        "data-loss": judged ? judged.loss : null, "data-after": judged ? judged.after : null, onclick: () => jump(i + 1) },
      text, verdictLine(verdicts.get(i)), (lost.get(i) || []).map((words) => el("span", { class: "lost-goal" }, words)));
      const number = judged ? judged.trick : Math.floor(i / 2) + 1;
      if (!tricks.length || tricks[tricks.length - 1].number !== number) tricks.push({ number, steps: [] });
      tricks[tricks.length - 1].steps.push(step);
    });
    const summary = review
      ? [el("div", {}, `points given away: ${SEATS.map((s) => `${s} ${points(review.postmortem_summary.loss[s])}`).join(", ")}`),
        review.postmortem_summary.goals.map((goal) => el("div", { class: "goal", "data-goal": goal.what, "data-by": goal.by },
          `${goal.what.replaceAll("_", " ")} by the ${goal.by}: ${goalFate(goal)}`))]
      : el("div", {}, "reviewing the play…");
    const players = knew ? knewSummary(knew) : state.review && state.review.knew_why
      ? el("div", { class: "knew-summary" }, `no review by what each player knew: ${state.review.knew_why}`) : null;
    fill(box, el("div", { class: "panel" }, el("h2", {}, "The file's play"), summary, players,
      knew ? decisionTable(knew.decisions, "decision-table") : null,
      el("div", { class: "tricks" }, steps,
        tricks.map((t) => el("div", { class: "ttrick" }, el("div", { class: "n" }, `trick ${t.number}`), t.steps)))));
  }

  // A set of cards as the API lists it (the hand diagram's order) by suit.
  function suitsOf(names) {
    return bySuit(names, (name) => cardView(name, { cls: "small" }), "none");
  }

  // The cards as dealt: each seat's hand, personal cards, discards (and the
  // personal cards he picked up, where the discard left some), the talon in
  // its order.
  function drawDealt(dealt) {
    const part = (what, label, cards) => el("div", { class: "dealt-part", "data-part": what },
      el("span", { class: "label" }, label), cards);
    const seats = SEATS.map((seat) => {
      const cards = dealt[seat];
      return el("div", { class: "dealt-seat", "data-seat": seat }, el("h3", {}, seat),
        part("hand", "hand", suitsOf(cards.hand)), part("personal", "personal", suitsOf(cards.personal)),
        part("discards", "discards", suitsOf(cards.discards)),
        cards.picked_up ? part("picked_up", "picked up", suitsOf(cards.picked_up)) : null);
    });
    const talon = part("talon", "talon, top first",
      el("div", { class: "suits" }, el("div", { class: "suit" }, dealt.talon.map((name) => cardView(name, { cls: "small" })))));
    return el("div", { id: "dealt", class: "dealt" }, el("h3", {}, "As dealt"), seats, talon);
  }

  function drawExchange() {
    const box = $("exchange");
    const answer = state.exchange && state.exchange.exchange;
    if (!answer) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const par = answer.par;
    const isPar = (row) => par.declarer === row.declarer && par.contract === row.contract &&
      JSON.stringify(par.take) === JSON.stringify(row.take);
    // Served, a row opens its position to play; a report holds the file's play only.
    const rows = answer.exchange_table.map((row, i) => {
      const number = i + 1;
      const classes = [isPar(row) ? "par" : "", REPORT ? "" : "open-row", state.row === number ? "current" : ""];
      const take = row.take.join(" ") || "—";
      const attrs = { class: classes.join(" ").trim(), "data-row": number };
      if (!REPORT) {
        Object.assign(attrs, { tabindex: 0, role: "button", title: `play row ${number}: ${row.contract} by the ${row.declarer}`
          + `, take ${take}, lay away ${row.lay_away.join(" ") || "—"}`, onclick: () => openRow(number),
        onkeydown: (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            openRow(number);
          }
        } });
      }
      return el("tr", attrs,
        el("td", { "data-label": "row" }, number), el("td", {}, row.declarer), el("td", {}, row.contract),
        el("td", { "data-label": "take" }, take), el("td", { "data-label": "lay away" }, row.lay_away.join(" ") || "—"),
        el("td", { "data-thirds": row.thirds }, points(row.thirds)),
        el("td", { class: row.result }, row.result + (row.valat ? ", valat" : "")),
        el("td", { "data-label": "game" }, (row.game_points > 0 ? "+" : "") + row.game_points),
        el("td", { "data-label": "best of" }, `${row.best_lay_aways} of ${row.lay_aways}`));
    });
    const parText = par.declarer
      ? `the ${par.declarer} plays ${par.contract} for ${par.game_points > 0 ? "+" : ""}${par.game_points} (calls: ${par.calls.join(", ")})`
      : `both pass (calls: ${par.calls.join(", ")})`;
    const declared = answer.declared;
    fill(box, el("div", { class: "panel" },
      el("h2", {}, "Before play: the exchange table and par"),
      drawDealt(answer.dealt),
      el("div", { id: "par", "data-game-points": par.game_points }, `Par: ${parText}`),
      declared ? el("div", { id: "declared" }, `Declared: the ${declared.declarer} in ${declared.contract},`
        + ` ${points(declared.thirds)} points, ${declared.result}; his exchange costs ${declared.exchange_cost} game points`
        + ` against the best of ${declared.contract}, his bid ${declared.bid_cost} against par`) : null,
      REPORT ? null : el("div", { class: "hint" }, "Click a row to play its position at trick 1."),
      el("table", { id: "exchange-table" },
        el("tr", { class: "head" }, ["row", "declarer", "contract", "take", "best lay-away", "points", "result", "game", "best of"]
          .map((h) => el("th", {}, h))),
        rows)));
  }

  // ---- a game against kosolve ---------------------------------------------

  // The sections of the deal view, hidden while a game is on the page.
  const DEAL_SECTIONS = ["board", "side", "timeline", "exchange", "welcome"];
  const CONTRACT_NAMES = { dreiblatt: "Dreiblatt", zweiblatt: "Zweiblatt", einblatt: "Einblatt", solo: "Solo" };
  const CALL_NAMES = { pass: "Pass", hold: "Hold", ...CONTRACT_NAMES };

  function openGame() {
    showError("");
    DEAL_SECTIONS.forEach((id) => { $(id).hidden = true; });
    $("game").hidden = false;
    $("name").textContent = "a game against kosolve";
  }

  // While a move is with the server (kosolve thinking, or the review at the
  // end) the table says so and takes no click: a second click would name a
  // decision the server has moved on from.
  function gamePending(on) {
    state.gamePending = on;
    $("game-board").classList.toggle("waiting", on);
    const thinking = $("game-thinking");
    if (thinking) thinking.hidden = !on;
    const decision = on && state.game ? state.game.decision : null;
    // The user's last card ends the game: the server reviews it before it answers.
    const last = decision && decision.decision === "play" && state.game.hand.length === 1;
    if (decision) fill($("game-status"), last ? "The game is over: kosolve reviews it…" : "kosolve is thinking…");
  }

  async function gameRequest(body) {
    showError("");
    loading(true);
    gamePending(true);
    try {
      const answer = await post("game", body);
      gamePending(false);
      drawGame(answer);
    } catch (error) {
      gamePending(false);
      showError(error.message);
      if (body.choice !== undefined) await gameAsItStands(body.game, error);
    } finally {
      loading(false);
    }
  }

  // A move whose answer came past the server's time limit was taken all the
  // same (and a choice after it is refused): the game as it stands is drawn,
  // the error kept only when the game has not moved on.
  async function gameAsItStands(game, error) {
    let answer;
    try {
      answer = await post("game", { game });
    } catch {
      return; // the error shown stands
    }
    const moved = answer.moves.length !== state.game.moves.length;
    drawGame(answer);
    if (!moved) showError(error.message);
  }

  function startGame(event) {
    if (event) event.preventDefault();
    const seed = $("game-seed").value;
    const settings = { seat: $("game-seat").value, bot: $("game-bot").value,
      rules: { defender_announcements: $("game-defender-announcements").checked, kontra: $("game-kontra").checked } };
    if (seed !== "") settings.seed = Number(seed);
    return gameRequest({ new: settings });
  }

  function choose(index) {
    if (state.gamePending) return;
    // The number of moves names the decision chosen on: the same click sent
    // twice, or one on an answer that came too late, is refused.
    gameRequest({ game: state.game.game, choice: index, moves: state.game.moves.length });
  }

  // A card, or a group of cards, that a click or Enter chooses.
  function clickable(node, action) {
    node.classList.add("playable");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.addEventListener("click", action);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        action();
      }
    });
    return node;
  }

  // A card face down: nothing of it is on the page, not even in an attribute.
  const cardBack = (extra) => el("div", { class: `card back ${extra || ""}`.trim(), "aria-label": "a card face down" });

  // The cards ``names`` grouped by suit as the hand diagram orders them,
  // each drawn by ``draw``; ``empty`` says there are none.
  function bySuit(names, draw, empty = "no cards") {
    const groups = [];
    for (const name of names) {
      const suit = isTarock(name) ? "T" : name[0];
      if (!groups.length || groups[groups.length - 1].suit !== suit) groups.push({ suit, cards: [] });
      groups[groups.length - 1].cards.push(name);
    }
    return el("div", { class: "suits" }, groups.length
      ? groups.map((group) => el("div", { class: "suit" }, group.cards.map(draw)))
      : el("span", { class: "label" }, empty));
  }

  const stake = (value) => `${value} game point${value === 1 ? "" : "s"}`;
  const signed = (value) => value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0";
  const otherSeat = (seat) => SEATS.find((s) => s !== seat);
  // Who sits in ``seat``, as the table names him.
  const who = (answer, seat) => seat === answer.seat ? "you" : "kosolve";
  const optionName = (option) => option.replaceAll("_", " ");

  // The tricks and card points each seat has won so far.
  function countedText(answer, seat) {
    const counted = answer.counted[seat];
    return `${plural(counted.tricks, "trick")} · ${points(counted.thirds)} card points`;
  }

  function seatHead(answer, seat, label) {
    const declarer = answer.declarer === seat
      ? el("span", { class: "role" }, `declarer: ${CONTRACT_NAMES[answer.contract]}`) : null;
    return el("div", { class: "seat-head" }, el("span", {}, el("strong", {}, label), ` · ${seat} `, declarer),
      el("span", { class: "counted", "data-counted": answer.counted[seat].thirds }, countedText(answer, seat)));
  }

  // At the end a seat's hand as played from trick 1 (the declarer's after
  // his exchange; as dealt when both passed) and its pile, turned up; null
  // while the game goes on.
  function turnedUp(answer, seat) {
    const end = answer.end;
    if (!end) return null;
    const small = (name) => cardView(name, { cls: "small" });
    return el("div", { class: "turned-up", "data-seat": seat },
      el("div", { class: "pile-row", "data-part": "held" }, el("span", { class: "label" },
        end.held ? "hand at trick 1" : "hand"), bySuit(end.held ? end.held[seat] : end.hands[seat], small)),
      end.piles ? el("div", { class: "pile-row", "data-part": "pile" }, el("span", { class: "label" },
        `pile: ${points(end.piles[seat].thirds)} card points with the tricks`), bySuit(end.piles[seat].cards, small)) : null);
  }

  // kosolve's seat: its cards face down (how many, nothing else), what of
  // its pile lies face up, and whether it is thinking.
  function drawOther(answer) {
    const seat = otherSeat(answer.seat);
    const view = answer.decision ? answer.decision.view : null;
    const seen = view ? view.other.pile : [];
    const laid = answer.end ? null : answer.moves.find((m) => m.decision === "lay_away" && m.seat === seat);
    const hidden = laid && laid.face_up ? answer.taken.length - laid.face_up.length : 0;
    fill($("game-other"),
      seatHead(answer, seat, `kosolve (${answer.bot})`),
      turnedUp(answer, seat) || el("div", { class: "backs", "data-bot-cards": answer.bot_cards },
        Array.from({ length: answer.bot_cards }, () => cardBack("small")),
        el("span", { id: "game-thinking", class: "thinking", hidden: !state.gamePending }, "thinking…")),
      laid ? el("div", { id: "game-laid", class: "pile-row" }, el("span", { class: "label" }, "laid away"),
        laid.face_up.map((name) => cardView(name, { cls: "small" })),
        Array.from({ length: hidden }, () => cardBack("small"))) : null,
      seen.length && !laid ? el("div", { class: "pile-row" }, el("span", { class: "label" }, "in its pile"),
        seen.map((name) => cardView(name, { cls: "small" }))) : null);
  }

  // The talon: six cards, face down until the rules turn them up (the talon
  // choice; never in a Solo); the groups the user may take are clickable.
  function drawTalon(answer) {
    const decision = answer.decision;
    const taking = decision && decision.decision === "take";
    const talon = answer.talon;
    let cards;
    if (!talon) {
      cards = el("div", { class: "suit" }, Array.from({ length: 6 }, () => cardBack("small")));
    } else if (taking) {
      cards = decision.legal.map((group, i) => clickable(el("div", { class: "talon-group", "data-index": i,
        title: `take ${group.join(" ")}` }, group.map((name) => cardView(name, { cls: "small" }))), () => choose(i)));
    } else {
      const taken = answer.taken || [];
      cards = el("div", { class: "suit" }, talon.map((name) =>
        cardView(name, { cls: `small${taken.includes(name) ? " gone" : ""}` })));
    }
    const caption = answer.contract === "solo" && !answer.end ? "talon (a Solo leaves it face down)"
      : answer.taken && answer.taken.length ? `talon: ${who(answer, answer.declarer)} took ${answer.taken.join(" ")}` : "talon";
    fill($("game-talon"), el("div", { class: "label" }, caption), el("div", { class: "talon-cards" }, cards));
  }

  // A trick on the table: each card with who played it.
  function trickView(answer, trick, big) {
    const seats = [trick.leader, otherSeat(trick.leader)];
    const played = seats.map((seat, i) => {
      const name = trick.cards[i];
      return el("div", { class: "played", "data-by": who(answer, seat), "data-card": name || null },
        el("span", { class: "label" }, who(answer, seat)),
        name ? cardView(name, { cls: big ? "" : "small" }) : el("div", { class: `card slot${big ? "" : " small"}` }));
    });
    const result = trick.winner ? `${who(answer, trick.winner)} took ${points(trick.thirds)}` : "";
    return el("div", { class: `trick${big ? " now" : " last"}`, "data-trick": trick.number },
      el("div", { class: "label" }, `trick ${trick.number}`), el("div", { class: "trick-cards" }, played),
      el("div", { class: "label took" }, result));
  }

  function drawTrick(answer) {
    const tricks = answer.tricks;
    const last = tricks[tricks.length - 1];
    const parts = [];
    if (last && !last.winner) {
      parts.push(trickView(answer, last, true));
      if (tricks.length > 1) parts.push(trickView(answer, tricks[tricks.length - 2], false));
    } else if (last) {
      parts.push(trickView(answer, last, true));
    }
    fill($("game-table"), parts);
  }

  // The auction as a bidding table, the forehand's column first, and the
  // announcements with their Kontras and the game points at stake.
  function drawCalls(answer) {
    const bids = answer.moves.filter((m) => m.decision === "bid");
    const rows = [];
    for (const bid of bids) {
      if (!rows.length || bid.seat === "forehand" || rows[rows.length - 1][bid.seat]) rows.push({});
      rows[rows.length - 1][bid.seat] = bid.option;
    }
    const auction = bids.length ? el("table", { id: "game-auction", class: "calls" },
      el("tr", {}, SEATS.map((seat) => el("th", {}, who(answer, seat)))),
      rows.map((row) => el("tr", {}, SEATS.map((seat) => el("td", { "data-seat": seat },
        row[seat] ? CALL_NAMES[row[seat]] || row[seat] : ""))))) : null;
    const contract = answer.contract
      ? el("div", { id: "game-contract" }, `${who(answer, answer.declarer) === "you" ? "You play" : "kosolve plays"} `,
        el("strong", {}, CONTRACT_NAMES[answer.contract])) : null;
    const announced = answer.announcements.length ? el("table", { id: "game-announced", class: "calls" },
      answer.announcements.map((a) => el("tr", { "data-what": a.what, "data-by": who(answer, a.by),
        "data-kontra": a.kontra ? "true" : "false", "data-value": a.value },
      el("td", {}, who(answer, a.by)), el("td", {}, optionName(a.what) + (a.when ? ` (${a.when})` : "")),
      el("td", {}, a.kontra ? "Kontra" : ""), el("td", { class: "num" }, stake(a.value))))) : null;
    const switches = [answer.rules.defender_announcements ? "the defender announces too" : null,
      answer.rules.kontra ? "Kontra" : null].filter(Boolean);
    fill($("game-calls"), auction, contract, announced,
      switches.length ? el("div", { id: "game-rules", class: "label" }, `Rules: ${switches.join("; ")}`) : null);
  }

  // The user's hand: the cards he took from the talon marked; in the play
  // his legal cards clickable; in the lay-away the cards that can still
  // complete one of the legal lay-aways.
  function drawHand(answer) {
    const decision = answer.decision;
    const kind = decision ? decision.decision : null;
    const taken = answer.declarer === answer.seat ? answer.taken || [] : [];
    const selected = state.layAway;
    const legal = kind === "lay_away" ? decision.legal : [];
    const fits = (cards) => legal.some((option) => cards.every((name) => option.includes(name)));
    const draw = (name) => {
      const classes = [taken.includes(name) ? "taken" : ""];
      if (kind === "play") {
        const index = decision.legal.indexOf(name);
        if (index < 0) return cardView(name, { cls: [...classes, "illegal"].join(" ") });
        return clickable(cardView(name, { cls: classes.join(" ") }), () => playCard(answer, index, name));
      }
      if (kind === "lay_away") {
        const chosen = selected.has(name);
        if (!chosen && !fits([...selected, name])) return cardView(name, { cls: [...classes, "illegal"].join(" ") });
        if (chosen) classes.push("selected");
        return clickable(cardView(name, { cls: classes.join(" ") }), () => {
          if (state.gamePending) return;
          if (selected.has(name)) selected.delete(name);
          else selected.add(name);
          drawHand(answer);
          drawOptions(answer);
        });
      }
      return cardView(name, { cls: classes.join(" ") });
    };
    const view = decision ? decision.view : null;
    const fromTalon = !answer.end && answer.hand.some((name) => taken.includes(name));
    // The user's pile, folded unless he opened it: it stays as he left it from move to move.
    const pile = view && view.pile.length ? el("details", { class: "pile-row mine", open: state.pileOpen,
      ontoggle: (event) => { state.pileOpen = event.target.open; } },
    el("summary", { class: "label" }, `your pile: ${plural(view.pile.length, "card")}`),
    bySuit(view.pile, (name) => cardView(name, { cls: "small" }))) : null;
    fill($("game-hand"), seatHead(answer, answer.seat, "you"),
      fromTalon ? el("div", { class: "legend" }, el("span", { class: "ring" }), "from the talon") : null,
      turnedUp(answer, answer.seat) || bySuit(answer.hand, draw), pile);
    $("game-hand").classList.toggle("to-move", !!decision);
  }

  // A card clicked goes to the table at once, kosolve's answer to come.
  function playCard(answer, index, name) {
    if (state.gamePending) return;
    const last = answer.tricks[answer.tricks.length - 1];
    const trick = last && !last.winner ? { ...last, cards: [...last.cards, name] }
      : { number: last ? last.number + 1 : 1, leader: answer.seat, cards: [name], winner: null };
    fill($("game-table"), trickView(answer, trick, true));
    const node = $("game-hand").querySelector(`[data-card="${name}"]`);
    if (node) node.classList.add("gone");
    choose(index);
  }

  // The lay-away chosen by clicking cards: the index of the legal option
  // that holds exactly the cards selected, or -1.
  function chosenLayAway(legal) {
    const selected = state.layAway;
    return legal.findIndex((option) => option.length === selected.size && option.every((name) => selected.has(name)));
  }

  // What the user decides now, as buttons: each call; each announcement or
  // Kontra with the game points it puts at stake; the lay-away's Confirm.
  function drawOptions(answer) {
    const decision = answer.decision;
    if (!decision) {
      fill($("game-options"));
      return;
    }
    const kind = decision.decision;
    const legal = decision.legal;
    let parts;
    if (kind === "play") {
      parts = null;
    } else if (kind === "take") {
      parts = el("span", { class: "prompt" }, "Take from the talon: click a group of its cards.");
    } else if (kind === "lay_away") {
      // Drawn again at each card clicked: enabled once the cards chosen are a legal lay-away.
      const index = chosenLayAway(legal);
      const size = legal[0].length;
      parts = [el("span", { class: "prompt" }, `Lay away ${plural(size, "card")}: ${state.layAway.size} chosen`),
        el("button", { type: "button", id: "game-lay", class: "primary", disabled: index < 0, onclick: () => choose(index) },
          "Confirm")];
    } else {
      const values = decision.values || [];
      const done = { bid: null, announce: "Done", kontra: "No Kontra" }[kind];
      parts = legal.map((option, i) => {
        const value = values[i];
        const name = option === "done" ? done : kind === "bid" ? CALL_NAMES[option] || option
          : `${kind === "kontra" ? "Kontra on " : ""}${optionName(option)}`;
        return el("button", { type: "button", class: `game-option${option === "done" || option === "pass" ? "" : " primary"}`,
          "data-index": i, "data-option": option, "data-value": value ?? "", onclick: () => choose(i) },
        el("span", { class: "option-name" }, name),
        value === null || value === undefined ? null : el("span", { class: "option-stake" }, stake(value)));
      });
    }
    fill($("game-options"), parts);
  }

  // The status line: whose turn and what to do, in a few words.
  function statusText(answer) {
    const decision = answer.decision;
    if (!decision) return "The game is over";
    const tricks = answer.tricks;
    const last = tricks[tricks.length - 1];
    // Only the decision's own entry is shown (a take's count is its talon groups' size).
    const words = {
      bid: "Your call",
      announce: "Announce? One at a time, then Done",
      kontra: "Kontra? One at a time, then No Kontra",
      take: `Take ${plural(decision.legal[0].length, "talon card")}: click a group`,
      lay_away: "Lay away: click cards in your hand, then Confirm",
      play: last && !last.winner ? "Your card: follow kosolve's lead" : "Your lead: click a card",
    };
    return words[decision.decision];
  }

  // The tricks played so far, each card with who played it.
  function drawLog(answer) {
    const done = answer.tricks.filter((trick) => trick.winner);
    fill($("game-log"), done.length ? [el("h2", {}, "Tricks"), el("div", { class: "tricks" },
      done.map((trick) => el("div", { class: "ttrick", "data-trick": trick.number },
        el("div", { class: "n" }, `${trick.number}: ${who(answer, trick.winner)} +${points(trick.thirds)}`),
        el("div", { class: "trick-cards" }, trick.cards.map((name, i) => {
          const seat = i === 0 ? trick.leader : otherSeat(trick.leader);
          return el("div", { class: "played", "data-by": who(answer, seat) },
            el("span", { class: "label" }, who(answer, seat)), cardView(name, { cls: "small" }));
        })))))] : null);
    $("game-log").hidden = !done.length;
    $("game-log").dataset.moves = answer.moves.length;
  }

  // ---- the end of a game -------------------------------------------------

  function gameButtons(answer) {
    const end = answer.end;
    const buttons = [];
    if (end.game_file) {
      const name = `game ${end.seed}: you the ${answer.seat} against ${answer.bot}`;
      buttons.push(el("button", { type: "button", id: "game-open", class: "primary",
        onclick: () => loadDeal(name, end.game_file, { rules: answer.rules }) }, "Open in the analysis board"));
      const blob = new Blob([JSON.stringify(end.game_file)], { type: "application/json" });
      buttons.push(el("a", { id: "game-file", class: "button", href: URL.createObjectURL(blob),
        download: `kosolve-game-${end.seed}.json`, title: "the game as a deal as dealt: kosolve review and report read it" },
      "Download"));
    }
    const seat = otherSeat(answer.seat);
    buttons.push(el("button", { type: "button", id: "game-again", title: `the same deal (seed ${end.seed}), you the ${seat}`,
      onclick: () => {
        $("game-seat").value = seat;
        $("game-bot").value = answer.bot;
        $("game-seed").value = end.seed;
        gameRequest({ new: { seat, bot: answer.bot, seed: end.seed, rules: answer.rules } });
      } }, "Play again from the other seat"));
    return el("div", { class: "game-buttons" }, buttons);
  }

  // Who won and lost what: the contract's result and the settlement, item by item, for whom.
  function settlementView(answer) {
    const end = answer.end;
    const mine = end.totals[answer.seat];
    const result = end.result;
    const whose = result.declarer === answer.seat ? "Your" : "kosolve's";
    const verdict = `${whose} ${CONTRACT_NAMES[result.contract]}: ${result.won ? "won" : "lost"} with `
      + `${points(result.thirds)} card points (${points(answer.rules.win_thirds)} needed)`;
    const forWhom = (seat) => seat === answer.seat ? "you" : "kosolve";
    return [
      el("div", { id: "game-result", class: `headline ${mine > 0 ? "won" : mine < 0 ? "lost" : ""}`,
        "data-totals": JSON.stringify(end.totals) },
      mine > 0 ? `You win ${stake(mine)}` : mine < 0 ? `You lose ${stake(-mine)}` : "Nobody scores"),
      el("div", { id: "game-verdict", "data-won": String(result.won), "data-declarer": result.declarer }, verdict),
      el("table", { id: "game-settlement" },
        el("tr", {}, ["item", "for", "game points", "why"].map((h) => el("th", {}, h))),
        end.items.map((item) => el("tr", { "data-item": item.name, "data-to": forWhom(item.to) },
          el("td", {}, optionName(item.name)), el("td", {}, forWhom(item.to)),
          el("td", { class: "num" }, `+${item.points}`), el("td", {}, item.why))),
        el("tr", { class: "total" }, el("td", {}, "total"),
          el("td", { colspan: 3 }, SEATS.map((seat) => `${forWhom(seat)} ${signed(end.totals[seat])}`).join(" · ")))),
    ];
  }

  // The review: the decisions and the user's cards, the costliest first.
  function reviewView(answer) {
    const end = answer.end;
    if (!end.review) return el("div", { id: "game-no-review" }, `Your play is not judged: ${end.review_why}.`);
    const seat = answer.seat;
    const p = end.review.players[seat];
    const percent = (share) => share === null ? "–" : `${Math.round(100 * share)}%`;
    // His own decisions only: kosolve's are not where he lost points.
    const decisions = end.review.decisions.filter((d) => d.seat === seat).sort((a, b) =>
      b.knew_loss_points - a.knew_loss_points || b.dd_loss_points - a.dd_loss_points || a.index - b.index);
    const cards = end.review.cards.filter((card) => card.seat === seat).sort((a, b) =>
      b.knew_loss_thirds - a.knew_loss_thirds || b.dd_loss_thirds - a.dd_loss_thirds || a.index - b.index);
    const cardRows = cards.map((card) => el("tr", { "data-index": card.index, "data-loss": card.knew_loss_thirds,
      class: card.verdict === "mistake" ? "mistake" : "" },
    el("td", {}, `trick ${card.trick}`), el("td", {}, cardView(card.card, { cls: "tiny" })),
    el("td", {}, card.best.length && card.knew_loss_thirds > 0 ? card.best.join(" ") : "—"),
    el("td", { class: "num" }, card.knew_loss_thirds > 0 ? `−${meanPoints(card.knew_loss_thirds)}` : "—"),
    el("td", { class: "num" }, card.dd_loss_thirds > 0 ? `−${points(card.dd_loss_thirds)}` : "—"),
    el("td", {}, el("span", { class: `verdict ${card.verdict}` }, card.verdict))));
    return [el("h3", {}, "Where you lost points, the costliest first"),
      el("div", { id: "game-review" }, `${p.judged} cards judged: best by what you knew ${percent(p.knew_accuracy)},`
        + ` best double dummy ${percent(p.dd_accuracy)}; ${p.mistake} mistake${p.mistake === 1 ? "" : "s"},`
        + ` ${p.unlucky} unlucky, ${p.lucky} lucky`),
      decisionTable(decisions, "game-decisions", true),
      el("div", { class: "decisions" }, el("h3", {}, "Your cards (card points)"),
        el("table", { id: "game-cards" },
          el("tr", {}, ["trick", "card", "best by what you knew", "loss", "DD loss", "verdict"].map((h) => el("th", {}, h))),
          cardRows))];
  }

  function drawEnd(answer) {
    const end = answer.end;
    if (!end) {
      fill($("game-end"));
      $("game-end").hidden = true;
      return;
    }
    $("game-end").hidden = false;
    if (!end.totals) {
      fill($("game-end"), el("div", { id: "game-result", class: "headline" }, "Both passed: nothing was played."),
        gameButtons(answer));
      return;
    }
    fill($("game-end"), settlementView(answer), gameButtons(answer), reviewView(answer));
  }

  function drawGame(answer) {
    openGame();
    const decision = answer.decision;
    // A new decision starts the lay-away's selection afresh.
    if (!state.game || state.game.game !== answer.game || state.game.moves.length !== answer.moves.length) {
      state.layAway = new Set();
    }
    state.game = answer;
    $("game-hint").hidden = true;
    $("game-board").hidden = false;
    $("game-board").dataset.phase = answer.phase;
    $("game-board").dataset.decision = decision ? decision.decision : "";
    // The seed deals kosolve's hand again: the answers name it at the end only.
    fill($("game-status"), statusText(answer), answer.end ? ` · deal ${answer.end.seed}` : "");
    drawOther(answer);
    drawTalon(answer);
    drawTrick(answer);
    drawCalls(answer);
    drawHand(answer);
    drawOptions(answer);
    drawLog(answer);
    drawEnd(answer);
  }

  // ---- wiring -----------------------------------------------------------------

  $("start").addEventListener("click", () => go(0));
  $("undo").addEventListener("click", () => go(state.cursor - 1));
  $("redo").addEventListener("click", () => go(state.cursor + 1));
  $("end").addEventListener("click", () => go(state.line.length));
  $("best").addEventListener("click", bestLine);
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    if (!state.answer) return;
    const keys = { ArrowLeft: () => go(state.cursor - 1), ArrowRight: () => go(state.cursor + 1),
      Home: () => go(0), End: () => go(state.line.length), b: bestLine };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  if (REPORT) {
    $("loader").hidden = true;
    state.name = REPORT.name;
    $("name").textContent = REPORT.name;
    document.title = `kosolve: ${REPORT.name}`;
    $("welcome").hidden = true;
    state.review = REPORT.review;
    state.exchange = REPORT.exchange;
    if (REPORT.positions.length) {
      state.filePlay = REPORT.positions[REPORT.positions.length - 1].view.play;
      state.line = state.filePlay.slice();
      show();
    }
    drawExchange();
  } else {
    // The game form starts from the server's rules (kosolve serve --kontra ...).
    // A box the user ticked already is left as he set it.
    const touched = new Set();
    ["game-defender-announcements", "game-kontra"].forEach((id) => $(id).addEventListener("change", () => touched.add(id)));
    fetch(API.slice(0, -1)).then((response) => response.json()).then((answer) => {
      const rules = answer.rules || {};
      if (!touched.has("game-defender-announcements")) $("game-defender-announcements").checked = !!rules.defender_announcements;
      if (!touched.has("game-kontra")) $("game-kontra").checked = !!rules.kontra;
    }, () => {}).finally(() => { $("game-form").dataset.rules = "server"; });
    $("play-game").addEventListener("click", openGame);
    $("game-form").addEventListener("submit", startGame);
    $("open").addEventListener("change", (event) => {
      if (event.target.files.length) loadFile(event.target.files[0]);
      event.target.value = "";
    });
    $("load-paste").addEventListener("click", () => {
      $("paste-box").open = false;
      loadText("pasted deal", $("paste").value);
    });
    $("random").addEventListener("click", randomDeal);
    document.addEventListener("dragover", (event) => event.preventDefault());
    document.addEventListener("drop", (event) => {
      event.preventDefault();
      if (event.dataTransfer.files.length) loadFile(event.dataTransfer.files[0]);
    });
    const shared = location.hash.startsWith("#p=") ? decodeURIComponent(location.hash.slice(3)) : null;
    if (shared) {
      post("notation", { text: shared })
        .then((answer) => loadDeal("shared position", answer.deal))
        .then(() => go(state.line.length), (error) => showError(error.message));
    }
    fetch(API + "files").then((response) => response.json()).then((answer) => {
      const files = answer.files || [];
      if (!files.length) return;
      const select = $("files");
      select.hidden = false;
      select.replaceChildren(el("option", { value: "", disabled: true, hidden: true }, "another deal"),
        ...files.map((file, i) => el("option", { value: i }, file.name)));
      select.addEventListener("change", () => {
        const index = Number(select.value);
        loadDeal(files[index].name, files[index].deal, { file: index });
      });
      if (!shared) loadDeal(files[0].name, files[0].deal, { file: 0 });
    }, (error) => showError(error.message));
  }
})();
