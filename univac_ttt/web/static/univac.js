// The Supervisory Control page: it sends keys and shows the paper. Every move, board and
// message comes from the emulated UNIVAC on the server, through the desk; this script only
// types the paper at the typewriter's pace, lights the lamps and makes the typewriter's sound.
"use strict";

(() => {
  const CHARACTER_SECONDS = 0.1; // the SC typewriter, about ten characters a second (U12)
  const RETURN_SECONDS = 0.3; // a carriage return takes longer
  const PAPER_LINES = 2000; // lines kept on the page (the desk keeps its own bounded paper)
  const STILL_TYPING = "The UNIVAC is still typing. Wait for INPUT READY.";
  const PASTE_KEYS = 200; // keys a paste may type (the terminal's keyboard line holds 200)
  const PASTE_NOTHING = "Nothing in that paste is a key: type a square code, 1 to 9.";
  // What the server takes as a key: a printable character, as Python's str.isprintable
  // says (a tab, a no-break space or a control character copied from a page is left out:
  // the server would end the connection over it).
  const PASTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
  const $ = (id) => document.getElementById(id);
  const paper = $("paper");
  const clock = { now: () => performance.now() / 1000 };

  let socket = null;
  let hello = { authentic: true, museum: false };
  let queue = []; // {text, notBefore, keyed} or {after}
  let head = 0; // when the next character will be typed (page seconds)
  let offset = 0;
  let ready = false;
  let mode = "playing";
  let currentLine = null;
  let timer = null;
  let closedByServer = false;

  // ---- sound: synthesised with Web Audio, scheduled at the typing times ---------------
  const sound = {
    on: false,
    context: null,
    log: [], // every sound the page scheduled: {kind, at} (page seconds), for tests
    ensure() {
      if (!this.on) return null;
      if (!this.context) {
        const Context = window.AudioContext || window.webkitAudioContext;
        if (!Context) return null;
        this.context = new Context();
      }
      if (this.context.state === "suspended") this.context.resume().catch(() => {});
      return this.context;
    },
    play(kind, at) {
      if (!this.on) return;
      this.log.push({ kind, at });
      if (this.log.length > 5000) this.log.splice(0, 1000);
      window.dispatchEvent(new CustomEvent("univac-sound", { detail: { kind, at } }));
      const ctx = this.ensure();
      if (!ctx) return;
      const when = ctx.currentTime + Math.max(0, at - clock.now());
      if (kind === "strike") this.strike(ctx, when);
      else if (kind === "return") this.carriageReturn(ctx, when);
      else if (kind === "bell") this.bell(ctx, when);
    },
    noise(ctx, seconds) {
      const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * seconds), ctx.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      return source;
    },
    envelope(ctx, when, peak, decay) {
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(0.0001, when);
      gain.gain.exponentialRampToValueAtTime(peak, when + 0.002);
      gain.gain.exponentialRampToValueAtTime(0.0001, when + decay);
      gain.connect(ctx.destination);
      return gain;
    },
    strike(ctx, when) { // the type bar hitting the platen: a short filtered click
      const source = this.noise(ctx, 0.05);
      const filter = ctx.createBiquadFilter();
      filter.type = "bandpass"; filter.frequency.value = 2400; filter.Q.value = 1.2;
      source.connect(filter).connect(this.envelope(ctx, when, 0.5, 0.045));
      source.start(when); source.stop(when + 0.05);
    },
    carriageReturn(ctx, when) { // the carriage sliding back, then the stop's knock
      const slide = this.noise(ctx, 0.26);
      const filter = ctx.createBiquadFilter();
      filter.type = "bandpass"; filter.Q.value = 3;
      filter.frequency.setValueAtTime(600, when);
      filter.frequency.linearRampToValueAtTime(1500, when + 0.22);
      slide.connect(filter).connect(this.envelope(ctx, when, 0.18, 0.24));
      slide.start(when); slide.stop(when + 0.26);
      const knock = ctx.createOscillator();
      knock.frequency.value = 140;
      knock.connect(this.envelope(ctx, when + 0.23, 0.5, 0.07));
      knock.start(when + 0.23); knock.stop(when + 0.31);
    },
    bell(ctx, when) { // the margin bell: a struck bell's partials, decaying
      for (const [frequency, peak] of [[2093, 0.25], [4186, 0.08], [5274, 0.05]]) {
        const tone = ctx.createOscillator();
        tone.frequency.value = frequency;
        tone.connect(this.envelope(ctx, when, peak, 1.4));
        tone.start(when); tone.stop(when + 1.45);
      }
    },
  };

  // ---- the paper ------------------------------------------------------------------------
  function newLine(keyed) {
    currentLine = document.createElement("div");
    currentLine.className = keyed ? "keyed" : "typed";
    paper.appendChild(currentLine);
    while (paper.childElementCount > PAPER_LINES) paper.removeChild(paper.firstElementChild);
  }

  function show(text, keyed) {
    // Whole lines go into the log as text (a screen reader hears each one as it is typed).
    const parts = text.split("\n");
    parts.forEach((part, index) => {
      if (!currentLine || (currentLine.className === "keyed") !== keyed) {
        if (currentLine && currentLine.textContent === "") currentLine.className = keyed ? "keyed" : "typed";
        else newLine(keyed);
      }
      if (part) currentLine.appendChild(document.createTextNode(part));
      if (index < parts.length - 1) newLine(keyed);
    });
    paper.scrollTop = paper.scrollHeight;
  }

  function typing() { return queue.length > 0; }

  function pump() {
    timer = null;
    const now = clock.now();
    while (queue.length) {
      const item = queue[0];
      if (item.after) {
        if (head > now) break;
        queue.shift();
        applyAfter(item.after, now);
        continue;
      }
      head = Math.max(head, item.notBefore);
      let typed = "";
      while (offset < item.text.length && head <= now) {
        const ch = item.text[offset++];
        typed += ch;
        if (hello.authentic && !item.keyed) {
          if (ch === "\n") sound.play("return", head);
          else if (ch !== " ") sound.play("strike", head);
        }
        head += hello.authentic && !item.keyed ? (ch === "\n" ? RETURN_SECONDS : CHARACTER_SECONDS) : 0;
      }
      if (typed) show(typed, item.keyed);
      if (offset < item.text.length) break;
      queue.shift();
      offset = 0;
    }
    lamps();
    if (queue.length) timer = setTimeout(pump, Math.max(10, (Math.max(head, queue[0].notBefore || 0) - clock.now()) * 1000));
  }

  // NEW GAME: what is still to be typed is typed at once (the terminal console's F2 does
  // the same), so the new greeting is not kept waiting behind the old one at ten
  // characters a second.
  function finishTyping() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    while (queue.length) {
      const item = queue.shift();
      if (item.after) { applyAfter(item.after, clock.now()); continue; }
      const rest = item.text.slice(offset);
      offset = 0;
      if (rest) show(rest, item.keyed);
    }
    head = clock.now();
    lamps();
  }

  function schedule() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pump();
  }

  function addPaper(message) {
    const now = clock.now();
    if (!queue.length) head = Math.max(head, now);
    if (message.keyed) { ready = false; lamps(); } // word release: INPUT READY goes out
    if (message.keyed && !queue.length) { show(message.text, true); return; }
    const notBefore = hello.authentic ? now + message.delay : now;
    queue.push({ text: message.text, notBefore, keyed: message.keyed });
  }

  // ---- lamps, board, figures --------------------------------------------------------------
  let neons = [];
  let serverHint = ""; // the hint the server last sent (STILL_TYPING is the page's own)
  function lamps() {
    const lit = ready && !typing() && mode === "playing";
    // a key pressed while the UNIVAC typed said to wait for INPUT READY: once it is lit,
    // that hint is over (it stayed beside the lit lamp)
    if (lit && $("hint").textContent === STILL_TYPING) $("hint").textContent = serverHint;
    for (const lamp of document.querySelectorAll(".lamp")) {
      const name = lamp.dataset.name;
      const on = name === "INPUT READY" ? lit : neons.includes(name);
      lamp.classList.toggle("lit", on);
      lamp.setAttribute("aria-label", `${name} ${on ? "lit" : "dark"}`);
    }
    document.body.dataset.ready = lit ? "yes" : "no";
    if (lit && pasted.length && paste && !paste.sent.length) setTimeout(pasteOn, 0);
  }

  function applyAfter(after, now) {
    ready = after.ready;
    neons = after.neons || [];
    $("error").textContent = after.error || "";
    const cells = document.querySelectorAll("#board .cell");
    const board = after.board;
    document.querySelector(".board-area").hidden = board === null; // a program with no board
    cells.forEach((cell, i) => {
      const mark = board ? board[i] : "";
      cell.textContent = mark || String(i + 1);
      cell.classList.toggle("blank", !mark);
      cell.setAttribute("aria-label", `square ${i + 1}: ${mark || "empty"}`);
    });
    if (after.move) $("move-time").textContent = after.move;
    if (after.instructions) $("move-instructions").textContent = String(after.instructions);
    const [univac, draws, you] = after.score || [0, 0, 0];
    $("score").textContent = `UNIVAC ${univac} · draws ${draws} · you ${you}`;
    if (after.result) {
      sound.play("bell", now);
      if (pasted.length && paste) { // what a paste held past a game's end was that game's
        paste.ended = true;
        pasted = [];
        pasteDone();
      }
    }
    // once the reply is typed: the player's turn, or at a game's end the new game's (none)
    if (typeof after.caption === "string") $("caption").textContent = after.caption;
    lamps();
  }

  function applyState(message) {
    const answered = paste && paste.sent.length ? paste.sent.shift() : undefined;
    if (answered) pasteAnswered(answered, message);
    $("line").textContent = message.line;
    const before = mode;
    mode = message.mode;
    let hint = message.hint || message.your_move || "";
    serverHint = hint;
    // A paste's keys are answered one by one ("a word is twelve characters" to each key
    // past the twelfth); what became of the paste is said once, at its end, and stays
    // until a key of one's own.
    if (paste && (paste.note || answered !== undefined)) {
      hint = paste.note;
      if (!paste.sent.length && !pasted.length && !paste.note) hint = pasteDone() || serverHint;
    }
    $("hint").textContent = hint;
    $("caption").textContent = message.caption || "";
    document.body.dataset.mode = mode;
    if (message.tally) {
      const t = message.tally;
      $("tally-box").hidden = false;
      $("tally").textContent = `${t.games} games · UNIVAC ${t.univac_wins} · draws ${t.draws} · visitors ${t.opponent_wins} · ${t.demonstrations} demonstrations`;
    }
    const staff = $("staff-dialog");
    if (mode === "staff" && !staff.open) { staff.showModal(); $("staff-pin").focus(); }
    if (mode !== "staff" && staff.open) staff.close();
    // help a visitor left open would hide every demonstration: it closes as they start
    if (mode === "attract" && before !== "attract" && $("help-dialog").open) $("help-dialog").close();
    queue.push({ after: message.after });
    schedule();
  }

  // ---- the server ---------------------------------------------------------------------
  function send(data) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
  }

  // What is left of a paste: typed up to each WORD RELEASE, and on from there once the
  // UNIVAC has answered and INPUT READY is lit again (a key typed while it types would be
  // refused), so pasted moves play one after another. A key of one's own drops the rest.
  let pasted = [];
  // The paste's account: its characters, those the UNIVAC took, why the rest were not
  // typed; ``sent`` the keys whose answers (state messages) are still due, in order (null:
  // an earlier paste's).
  let paste = null;
  function pasteOn() {
    while (pasted.length && paste && !paste.sent.length && ready && !typing() &&
           mode === "playing") {
      let name;
      do { // the keys up to a WORD RELEASE go at once; then wait for every answer
        name = pasted.shift();
        paste.sent.push(name);
        key(name, true);
      } while (pasted.length && name !== "Enter");
    }
    if (mode !== "playing") pasted = [];
  }

  function pasteAnswered(name, message) {
    if (name === "Enter") {
      if (message.hint) paste.other = message.hint; // a release refused
      else paste.used += 1;
    } else if (message.line.length > paste.line.length) paste.used += 1;
    else if (paste.line.length >= hello.word) paste.word = true;
    else paste.lacking.add(name);
    paste.line = message.line;
  }

  // The paste has been typed as far as it goes: if not all of it, the hint says how much
  // and why, in plain words (it said "first 200 typed" beside the server's hint that a
  // word is twelve characters, when twelve were typed). Returns the hint ("" when whole).
  function pasteDone() {
    const p = paste;
    if (p.used >= p.total) { paste = null; return ""; }
    const why = [];
    if (p.word) why.push(`a word is ${hello.word} characters`);
    if (p.lacking.size) {
      const keys = [...p.lacking].slice(0, 3).map((k) => `"${k}"`).join(", ");
      why.push(`the UNIVAC keyboard has no ${keys} key${p.lacking.size > 1 ? "s" : ""}`);
    }
    if (p.skipped) why.push("tabs, special spaces and control characters are no keys");
    if (p.cut) why.push(`a paste types at most ${PASTE_KEYS} characters`);
    if (p.ended) why.push("the rest was for the game that ended");
    if (p.other) why.push(p.other.replace(/\.$/, ""));
    const typed = p.used === 0 ? "none was" : p.used === 1 ? "1 was" : `${p.used} were`;
    const full = p.word && p.line.length >= hello.word ? " Press WORD RELEASE or ERASE." : "";
    p.note = `Of the ${p.total} character${p.total === 1 ? "" : "s"} pasted, ${typed} ` +
      `typed: ${why.join("; ") || "the UNIVAC did not take them"}.${full}`;
    $("hint").textContent = p.note;
    return p.note;
  }

  function key(name, fromPaste = false) {
    if (!fromPaste) { pasted = []; paste = null; }
    if (name === "NewGame") finishTyping();
    if (name === "NewGame" || name === "Staff" || name === "Escape") { send({ k: name }); return; }
    if (!hello.museum && typing()) { $("hint").textContent = STILL_TYPING; return; }
    send({ k: name });
  }

  function connect() {
    closedByServer = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws`);
    socket.addEventListener("message", (event) => {
      const data = JSON.parse(event.data);
      for (const message of Array.isArray(data) ? data : [data]) receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (!closedByServer) goodbye(event.reason || "The connection to the UNIVAC was lost.");
    });
  }

  function receive(message) {
      if (message.t === "hello") start(message);
      else if (message.t === "paper") { addPaper(message); schedule(); }
      else if (message.t === "state") applyState(message);
      else if (message.t === "password") $("password-dialog").showModal();
      else if (message.t === "bye") goodbye(message.text);
  }

  function start(message) {
    hello = message;
    $("program-title").textContent = message.title;
    $("help-text").textContent = message.help;
    $("key-hint").textContent = message.key_hint;
    document.body.classList.toggle("museum", message.museum);
    if (message.museum && localStorage.getItem("univac-sound") !== "off") setSound(true);
  }

  function goodbye(text) {
    closedByServer = true;
    $("bye-text").textContent = text;
    $("bye").hidden = false;
    // An exhibit heals itself: once the server answers again, start afresh.
    if (hello.museum && !/^Staff exit/.test(text)) {
      setInterval(() => {
        fetch("/", { cache: "no-store" }).then((r) => { if (r.ok) location.reload(); }, () => {});
      }, 5000);
    }
  }

  // ---- keys: touch and mouse on the page, and the physical keyboard ---------------------
  function setSound(on) {
    sound.on = on;
    $("sound-key").setAttribute("aria-pressed", String(on));
    $("sound-key").textContent = on ? "SOUND ON" : "SOUND OFF";
    if (on) sound.ensure();
  }

  function setLarge(on) {
    document.documentElement.classList.toggle("large", on);
    $("large-key").setAttribute("aria-pressed", String(on));
    try { localStorage.setItem("univac-large", on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function strikeKey(button) {
    button.classList.add("struck");
    setTimeout(() => button.classList.remove("struck"), 90);
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const button of document.querySelectorAll("[data-key]")) {
      button.addEventListener("click", (event) => {
        sound.ensure();
        if (event.detail > 0) button.blur(); // touch or mouse: Enter stays WORD RELEASE
        key(button.dataset.key);
      });
    }
    // A touch or a click leaves no focus on HELP, SOUND or LARGE TYPE either: the next Enter
    // typed was that key's again (sound or large type flipped back, help reopened), not
    // WORD RELEASE. A key reached with Tab keeps its focus, as a keyboard user expects.
    const touched = (event) => { if (event.detail > 0) event.currentTarget.blur(); };
    $("help-key").addEventListener("click", (event) => { touched(event); $("help-dialog").showModal(); });
    // Nor on the help's CLOSE: the closed dialog's button kept the focus until the next
    // frame, and an Enter typed before it went to that button, not to WORD RELEASE.
    $("help-dialog").querySelector("form[method=dialog] button").addEventListener("click", touched);
    $("sound-key").addEventListener("click", (event) => {
      touched(event);
      setSound(!sound.on);
      try { localStorage.setItem("univac-sound", sound.on ? "on" : "off"); } catch (e) { /* */ }
    });
    $("large-key").addEventListener("click", (event) => {
      touched(event);
      setLarge(!document.documentElement.classList.contains("large"));
    });
    $("bye-again").addEventListener("click", () => location.reload());
    $("staff-form").addEventListener("submit", (event) => {
      event.preventDefault();
      send({ pin: $("staff-pin").value });
      $("staff-pin").value = "";
    });
    $("staff-cancel").addEventListener("click", () => send({ k: "Escape" }));
    $("staff-dialog").addEventListener("cancel", (event) => { event.preventDefault(); send({ k: "Escape" }); });
    $("password-form").addEventListener("submit", (event) => {
      event.preventDefault();
      send({ password: $("password").value });
      $("password").value = "";
      $("password-dialog").close();
    });
    // The board is the UNIVAC's, not a key: a visitor who touches a square is shown the
    // square-code key that plays it; during a demonstration the touch wakes the exhibit,
    // as any key does (the key is used up there, never played).
    document.querySelectorAll("#board .cell").forEach((cell, index) => {
      cell.addEventListener("click", () => {
        const code = String(index + 1);
        if (mode === "attract") { key(code); return; }
        const button = document.querySelector(`[data-key="${code}"]`);
        if (button) strikeKey(button);
        $("hint").textContent = `To play square ${code}, touch the key ${code} below, then WORD RELEASE.`;
      });
    });
    // Staff: F12, or a three-second press on the nameplate (a touchscreen has no F12).
    let pressed = null;
    $("nameplate").addEventListener("pointerdown", () => { pressed = setTimeout(() => key("Staff"), 3000); });
    for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
      $("nameplate").addEventListener(end, () => clearTimeout(pressed));
    }
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement || document.querySelector("dialog[open]")) {
        if (event.key === "F1") event.preventDefault();
        return;
      }
      if (event.ctrlKey || event.altKey || event.metaKey) return;
      let name = null;
      if (event.key === "Enter") name = "Enter";
      else if (event.key === "Backspace") name = "Backspace";
      else if (event.key === "F2") name = "NewGame";
      else if (event.key === "F12") name = "Staff";
      else if (event.key === "Escape") name = "Escape";
      else if (event.key === "F1") { event.preventDefault(); $("help-dialog").showModal(); return; }
      else if (event.key.length === 1) name = event.key;
      if (name === null) return;
      if (event.target instanceof HTMLButtonElement && (name === "Enter" || name === " ")) return;
      event.preventDefault();
      sound.ensure();
      const button = document.querySelector(`[data-key="${CSS.escape(name)}"]`);
      if (button) strikeKey(button);
      key(name);
    });
    // A paste types its characters as keys (a line's end is WORD RELEASE), through the same
    // checks as typed keys (a key the UNIVAC lacks, a full word); at most PASTE_KEYS. The
    // museum's exhibit takes no paste: it is touched, and its answers come with its ticks.
    document.addEventListener("paste", (event) => {
      if (hello.museum || event.target instanceof HTMLInputElement ||
          document.querySelector("dialog[open]")) return;
      event.preventDefault();
      const text = (event.clipboardData && event.clipboardData.getData("text")) || "";
      const keys = [];
      let total = 0, skipped = 0, cut = false;
      for (const ch of text.replace(/\r\n?/g, "\n")) {
        total += 1;
        if (cut) continue; // counted, not looked at
        if (ch !== "\n" && !PASTABLE.test(ch)) { skipped += 1; continue; }
        if (keys.length === PASTE_KEYS) { cut = true; continue; }
        keys.push(ch === "\n" ? "Enter" : ch);
      }
      if (!keys.length) { // a tab, a space copied from a page: nothing the UNIVAC has
        if (text) $("hint").textContent = PASTE_NOTHING;
        return;
      }
      sound.ensure();
      pasted = keys;
      paste = { total, used: 0, skipped, cut, ended: false, word: false, lacking: new Set(),
                other: "", note: "", line: $("line").textContent,
                sent: paste ? paste.sent.map(() => null) : [] };
      pasteOn();
    });
    let large = null;
    try { large = localStorage.getItem("univac-large"); } catch (e) { /* */ }
    setLarge(large === "on");
    setSound(false);
    connect();
  });

  window.univac = { sound, clock, typing: () => typing() };
})();
