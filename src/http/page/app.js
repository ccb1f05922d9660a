// The play page: a client of the public API, written so a frontend developer
// can copy how it calls the service. The server is the authority on rules:
// the page sends moves and draws what the server answers.
//
// Calls: GET /v1/games (options and limits), POST /v1/sessions (a game kept
// on the server). The AI's move is searched live with GET
// /v1/search/stream (EventSource: each depth is shown as it completes;
// Stop plays the best move so far), then the player's move and the AI's
// are played with POST /v1/sessions/{id}/moves (`reply: false`) and POST
// /v1/sessions/{id}/ai-move (`move`). Where the stream cannot be opened (a
// full pool, or a server with API keys: EventSource sends no header) the
// server searches instead, inside /moves or ai-move. Also /undo, DELETE, POST
// /v1/position (checks the player's move at once and draws it, and gives
// renju's forbidden points), POST /v1/search (the hint), GET
// /v1/sessions/{id}/record ("Copy record") and POST /v1/sessions with a
// `record` ("Load record").
'use strict';

(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const MARGIN = 0.7; // room for coordinates above and left of the board, in cells
  const PAD = 0.3; // and below and right of it, for the frame
  const KEY_STORE = 'gameai.apiKey';
  // What a move does, and so what the page marks, comes from the game's
  // /v1/games flags: `gravity` (a move is a column and the disc drops),
  // `column_notation` (moves are column digits), `flips` (moves turn
  // discs), `passes` (a side with no move passes), `forbidden_points`
  // (/v1/position lists black's forbidden points). Only the looks are a
  // game's own: board material, piece shape, colours and marker sizes. A
  // game with no entry here is drawn as black and white stones on a grid.
  const LOOKS = {
    tictactoe: { board: 'paper', pieces: 'marks', lastMove: 'square' },
    connect4: { radius: 0.4, colours: ['red', 'yellow'], lastDot: 'White dot' },
    gomoku: { board: 'wood', radius: 0.46, lastRadius: 0.13, colours: ['black', 'white'] },
    othello: { colours: ['black', 'white'] },
  };
  const SETTINGS_STORE = 'gameai.settings';

  const $ = (id) => document.getElementById(id);
  const el = {
    gameList: $('game-list'), setup: $('setup'), game: $('game'), size: $('size'), sizeField: $('size-field'),
    rules: $('rules'), rulesField: $('rules-field'), side: $('side'),
    byDepth: $('by-depth'), byTime: $('by-time'), depth: $('depth'), timeMs: $('time-ms'),
    byLevel: $('by-level'), level: $('level'),
    depthHint: $('depth-hint'), timeHint: $('time-hint'),
    status: $('status'), statusBox: $('status-box'), elapsed: $('elapsed'), error: $('error'), errorText: $('error-text'), errorClose: $('error-close'),
    auth: $('auth'), apiKey: $('api-key'), apiKeyForget: $('api-key-forget'),
    board: $('board'), undo: $('undo'), hint: $('hint'), pass: $('pass'), pause: $('pause'),
    restart: $('restart'), stop: $('stop'), legend: $('legend'), searchWho: $('search-who'), pv: $('pv'), moves: $('moves'),
    curl: $('curl'), copyCurl: $('copy-curl'),
    copyRecord: $('copy-record'), loadRecord: $('load-record'), recordForm: $('record-form'),
    recordText: $('record-text'), recordOut: $('record-out'),
    sDepth: $('s-depth'), sScore: $('s-score'), sNodes: $('s-nodes'), sTime: $('s-time'),
    sNps: $('s-nps'), sStopped: $('s-stopped'),
  };

  const state = {
    games: [],
    maxTimeMs: 10000,
    apiKey: readStore(KEY_STORE) || '',
    session: null,
    game: null, // the GameBody of the session's game
    shown: null, // the board as drawn now (rows), which may run ahead of the session
    shownMoves: [], // the moves that board has
    forbidden: [],
    hint: null, // {notation, report}
    pending: null, // the player's move on its way to the server
    lastMove: null,
    flipped: new Set(),
    animate: null, // {placed: Set, flipped: Set} for the next draw only
    search: null, // {report, label}
    busy: null, // 'thinking' | 'loading' | null
    busySince: 0,
    action: 0,
    controller: null,
    startMoves: null,
    startRecord: null, // {format, text} the next new game starts from
    shownToMove: null, // the side to move on the board drawn, when it runs ahead of the session
    autoplay: false,
    loop: 0,
    paused: false,
    focus: 0, // index of the board button that takes Tab
    overlayKey: '',
    retry: null,
    live: null, // the AI's streamed search: {source, best, stop()}
  };

  // ---------- the API ----------

  class ApiError extends Error {
    constructor(status, problem, message) {
      super(message);
      this.status = status;
      this.problem = problem;
    }
  }

  /** Calls the API; shows the call as curl unless `quiet` (helper calls). */
  async function api(method, path, body, { signal, quiet, raw } = {}) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (state.apiKey) headers.authorization = `Bearer ${state.apiKey}`;
    if (!quiet) el.curl.textContent = curlFor(method, path, body);
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      throw new ApiError(0, null, `The service could not be reached (${e.message}). Is it running?`);
    }
    const text = await response.text();
    if (raw && response.ok) return text;
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, data, problemMessage(response, data));
    }
    return data;
  }

  /** A person's reading of a problem+json answer. */
  function problemMessage(response, problem) {
    let message = (problem && problem.detail) || `${response.status} ${response.statusText}`.trim();
    if (!/[.!?]$/.test(message)) message += '.';
    if (problem && Array.isArray(problem.errors)) {
      for (const e of problem.errors) {
        if (e && e.message && !message.includes(e.message)) message += ` ${e.field}: ${e.message}.`;
      }
    }
    if (response.status === 503) {
      const retry = response.headers.get('retry-after');
      message += retry ? ` Try again in ${retry} s.` : ' Try again shortly.';
    }
    return message;
  }

  function curlFor(method, path, body) {
    const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
    const implied = method === 'GET' || (method === 'POST' && body !== undefined);
    const parts = [`curl -s${implied ? '' : ` -X ${method}`} ${quote(location.origin + path)}`];
    if (state.apiKey) parts.push('-H "authorization: Bearer $GAMEAI_API_KEY"');
    if (body !== undefined) {
      parts.push("-H 'content-type: application/json'");
      parts.push(`-d ${quote(JSON.stringify(body))}`);
    }
    return parts.join(' \\\n  ');
  }

  // ---------- actions ----------

  /**
   * Runs one user action at a time, with the page busy meanwhile; every
   * failure ends as a readable message, never a stuck page. `force` (new
   * game) cancels the action in flight.
   */
  async function run(busy, fn, { force = false } = {}) {
    if (state.busy && !force) return null; // one action at a time
    if (state.controller) state.controller.abort();
    const token = ++state.action;
    const controller = new AbortController();
    state.controller = controller;
    setBusy(busy);
    clearError();
    let ok = true;
    try {
      await fn({ signal: controller.signal, live: () => token === state.action });
    } catch (e) {
      ok = e.name === 'AbortError' ? null : false;
      if (e.name !== 'AbortError' && token === state.action) {
        showError(e, () => run(busy, fn, { force }));
      }
    } finally {
      if (token === state.action) {
        state.controller = null;
        state.pending = null;
        setBusy(null);
        render();
      }
    }
    return ok;
  }

  function settings() {
    const game = state.games.find((g) => g.name === el.game.value) || state.games[0];
    const strength = el.byTime.checked ? 'time' : el.byLevel.checked ? 'level' : 'depth';
    const s = { game: game.name, side: el.side.value, strength };
    if (game.sizes.length > 1) s.size = Number(el.size.value);
    if (game.rules.length > 1) s.rules = el.rules.value;
    s.depth = clampInt(el.depth.value, 1, game.max_depth, game.default_depth);
    s.time_ms = clampInt(el.timeMs.value, 1, state.maxTimeMs, Math.min(game.default_time_ms, state.maxTimeMs));
    s.level = clampInt(el.level.value, 1, 10, 5);
    return s;
  }

  function newGame() {
    const s = settings();
    writeStore(SETTINGS_STORE, JSON.stringify(s));
    const ai = { plays: s.side === 'X' ? 'O' : s.side === 'O' ? 'X' : 'both' };
    // By time: as deep as the game allows within the time. By depth: the
    // game's default time stays the safety limit.
    // By level: the server's ladder (depth, time and random moves).
    if (s.strength === 'time') Object.assign(ai, { time_ms: s.time_ms, depth: state.games.find((g) => g.name === s.game).max_depth });
    else if (s.strength === 'level') ai.level = s.level;
    else ai.depth = s.depth;
    const body = { game: s.game, ai };
    const record = state.startRecord;
    state.startRecord = null; // only this game starts from the record
    // A record names its own size (and SGF its rules); the form's would
    // only contradict it.
    if (s.size !== undefined && !record) body.size = s.size;
    if (s.rules !== undefined && !(record && /RU\[/.test(record.text))) body.rules = s.rules;
    if (record) body.record = record;
    else if (state.startMoves && state.startMoves.length) body.moves = state.startMoves;
    state.startMoves = null; // only the first game starts from a link's moves

    const old = state.session;
    state.autoplay = s.side === 'ai';
    state.paused = false;
    state.session = null;
    state.shownToMove = null;
    state.game = state.games.find((g) => g.name === s.game);
    state.shown = emptyBoard(state.game, s.size);
    state.shownMoves = [];
    state.search = null;
    state.hint = null;
    state.forbidden = [];
    state.lastMove = null;
    state.flipped = new Set();
    el.recordOut.hidden = true; // the old game's record
    render();
    if (old) {
      // Free the old game on the server; a failure here changes nothing for the player.
      api('DELETE', `/v1/sessions/${old.id}`, undefined, { quiet: true }).catch(() => {});
    }
    const aiFirst = ai.plays === 'X' || ai.plays === 'both';
    run(aiFirst ? 'thinking' : 'loading', async (ctx) => {
      const session = await api('POST', '/v1/sessions', body, ctx);
      await adopt(session, ctx);
    }, { force: true }).then(() => autoplay());
  }

  /** The player's move: checked and drawn at once, then sent to the session. */
  function play(notation) {
    const session = state.session;
    if (!session || !isPlayersTurn()) return;
    run('loading', async (ctx) => {
      state.pending = notation;
      render();
      // Ask the server whether the move is legal and what it does to the board.
      const moves = session.moves.concat([notation]);
      const after = await api('POST', '/v1/position', positionBody(session, moves), ctx);
      if (!ctx.live()) return; // a new game replaced this one meanwhile
      state.pending = null;
      showBoard(after.board, moves, notation);
      state.shownToMove = after.to_move;
      state.forbidden = [];
      state.hint = null;
      if (after.status === 'ongoing' && aiPlays(session, after.to_move)) setBusy('thinking');
      render();
      // The AI's reply is searched first, live, and both moves are played
      // once it is found: a search the server cannot run leaves nothing played.
      const found = after.status === 'ongoing' && aiPlays(session, after.to_move) && streamable()
        ? await streamSearch(session, moves, after.to_move, ctx)
        : null;
      if (!ctx.live()) return;
      if (found) {
        const played = await api('POST', `/v1/sessions/${session.id}/moves`,
          { move: notation, expected_version: session.version, reply: false }, ctx);
        const reply = await api('POST', `/v1/sessions/${session.id}/ai-move`,
          { ...foundBody(found), expected_version: played.version }, ctx);
        await adopt(reply, ctx);
        showFound(found, after.to_move);
        return;
      }
      const reply = await api('POST', `/v1/sessions/${session.id}/moves`,
        { move: notation, expected_version: session.version }, ctx);
      await adopt(reply, ctx);
    }).then((ok) => {
      if (ok === false) restoreSessionBoard();
    });
  }

  function aiMove() {
    const session = state.session;
    if (!session || session.status !== 'ongoing') return Promise.resolve(false);
    return run('thinking', async (ctx) => {
      const found = streamable() ? await streamSearch(session, session.moves, session.to_move, ctx) : null;
      if (!ctx.live()) return;
      const body = { expected_version: session.version, ...(found ? foundBody(found) : {}) };
      const reply = await api('POST', `/v1/sessions/${session.id}/ai-move`, body, ctx);
      await adopt(reply, ctx);
      if (found) showFound(found, session.to_move);
    });
  }

  /** Whether the AI's search can be streamed: EventSource sends no API key. */
  function streamable() {
    return typeof EventSource === 'function' && !state.apiKey;
  }

  /** The query of GET /v1/search/stream for the AI's move after `moves` in `session`. */
  function streamQuery(session, moves) {
    const q = new URLSearchParams({ game: session.game, moves: moves.join(' ') });
    if (state.game && state.game.sizes.length > 1) q.set('size', String(session.size));
    if (session.rules) q.set('rules', session.rules);
    q.set('depth', String(session.ai.depth));
    q.set('time_ms', String(session.ai.time_ms));
    if (session.ai.level) q.set('level', String(session.ai.level));
    return q;
  }

  /** A report for the search panel from a `depth` event. */
  function depthReport(d, side, stopped) {
    return { ...d, nps: Math.round((d.nodes * 1000) / Math.max(d.time_ms, 1)), stopped, to_move: side, proven: null };
  }

  /**
   * The AI's move for `side` after `moves`, searched live: each completed
   * depth is drawn as it arrives, and Stop (or a stream cut short) takes
   * the best move so far; closing the stream ends the search on the
   * server. Resolves with {move, report} (report null when stopped early),
   * or null when the stream could not be opened.
   */
  function streamSearch(session, moves, side, ctx) {
    const path = `/v1/search/stream?${streamQuery(session, moves)}`;
    el.curl.textContent = `curl -sN '${location.origin}${path}'`;
    setBusy('thinking');
    return new Promise((resolve, reject) => {
      const source = new EventSource(path);
      let best = null; // the last completed depth
      const stoppedAt = () => ({ move: best.pv[0], report: null, depth: best });
      const finish = (outcome) => {
        source.close();
        state.live = null;
        ctx.signal.removeEventListener('abort', onAbort);
        renderControls();
        outcome();
      };
      const onAbort = () => finish(() => reject(new DOMException('aborted', 'AbortError')));
      ctx.signal.addEventListener('abort', onAbort);
      state.live = { best: () => best, stop: () => finish(() => resolve(stoppedAt())) };
      renderControls();
      source.addEventListener('depth', (e) => {
        best = JSON.parse(e.data);
        state.search = { report: depthReport(best, side, 'running'), label: `The AI is searching for ${side}: depth ${best.depth} done` };
        renderSearch();
        renderControls();
      });
      source.addEventListener('result', (e) => {
        const r = JSON.parse(e.data);
        finish(() => resolve({ move: r.best_move.notation, report: r }));
      });
      source.addEventListener('error', (e) => {
        // With data: the search's own problem document. Without: the
        // connection failed, before the stream (then the server searches
        // instead) or during it (then the best move so far stands).
        if (e.data) {
          const problem = JSON.parse(e.data);
          finish(() => reject(new ApiError(problem.status, problem, problemMessage({ status: problem.status, statusText: '' }, problem))));
        } else {
          finish(() => resolve(best ? stoppedAt() : null));
        }
      });
    });
  }

  /** The AI's move as ai-move takes it, with its search's score and depth for the record. */
  function foundBody(found) {
    const r = found.report || found.depth;
    return { move: found.move, score: r.score, depth: r.depth };
  }

  /** The search panel after a streamed move was played. */
  function showFound(found, side) {
    state.search = found.report
      ? { report: found.report, label: `The AI's search for ${side}: it played ${found.move}` }
      : { report: depthReport(found.depth, side, 'cancelled'), label: `The AI's search for ${side}, stopped after depth ${found.depth.depth}: it played ${found.move}` };
  }

  /** AI against AI: one move after another until the end or a pause. */
  async function autoplay() {
    const loop = ++state.loop; // a newer loop (Resume, New game) replaces this one
    const running = () => loop === state.loop && state.autoplay && !state.paused
      && state.session && state.session.status === 'ongoing';
    while (running()) {
      await sleep(350); // time to see each move
      if (!running() || state.busy) return;
      const ok = await aiMove();
      if (ok === false && loop === state.loop) {
        state.paused = true; // an error pauses; Resume tries again
        render();
        return;
      }
      if (ok === null) return;
    }
  }

  function undo() {
    const session = state.session;
    if (!session || session.moves.length === 0) return;
    if (state.autoplay) state.paused = true;
    run('loading', async (ctx) => {
      const reply = await api('POST', `/v1/sessions/${session.id}/undo`,
        { expected_version: session.version }, ctx);
      state.search = null;
      await adopt(reply, ctx, { animate: false });
    });
  }

  function hint() {
    const session = state.session;
    if (!session || !isPlayersTurn()) return;
    run('hint', async (ctx) => {
      // The same strength as the AI's.
      const body = { ...positionBody(session, session.moves), depth: session.ai.depth, time_ms: session.ai.time_ms };
      const report = await api('POST', '/v1/search', body, ctx);
      if (!ctx.live()) return;
      state.hint = { notation: report.best_move.notation, report };
      state.search = { report, label: `Hint for ${report.to_move} (not played): ${report.best_move.notation}` };
    });
  }

  /**
   * A pasted record's format and game, from its look: GGF and SGF name
   * their game, psq is gomoku, anything else is moves of the chosen game.
   */
  function recordKind(text) {
    const t = text.trim();
    if (/^\(;/.test(t) && /GM\[\s*othello\s*\]/i.test(t)) return { format: 'ggf', game: 'othello' };
    if (/^\(/.test(t)) {
      const gm = /GM\[\s*(\d+)\s*\]/.exec(t);
      return { format: 'sgf', game: gm && gm[1] === '2' ? 'othello' : 'gomoku' };
    }
    if (/^Piskvorky/i.test(t)) return { format: 'psq', game: 'gomoku' };
    return { format: 'moves', game: el.game.value };
  }

  /** Starts a new game from the pasted record, in the game it is of. */
  function loadRecord() {
    const text = el.recordText.value;
    if (!text.trim()) {
      el.recordText.focus();
      return;
    }
    const kind = recordKind(text);
    if (kind.game !== el.game.value && state.games.some((g) => g.name === kind.game)) {
      el.game.value = kind.game;
      onGameChange(null);
    }
    state.startRecord = { format: kind.format, text };
    el.recordForm.hidden = true;
    el.loadRecord.setAttribute('aria-expanded', 'false');
    newGame();
  }

  /** Copies the session as a record in its game's own format. */
  function copyRecord() {
    const session = state.session;
    if (!session) return;
    run('loading', async (ctx) => {
      const text = await api('GET', `/v1/sessions/${session.id}/record`, undefined, { ...ctx, raw: true });
      if (!ctx.live()) return;
      el.recordOut.textContent = text;
      el.recordOut.hidden = false;
      try {
        await navigator.clipboard.writeText(text);
        el.copyRecord.textContent = 'Copied';
      } catch {
        // No clipboard outside secure contexts: select the text instead.
        getSelection().selectAllChildren(el.recordOut);
        el.copyRecord.textContent = 'Selected';
      }
      setTimeout(() => { el.copyRecord.textContent = 'Copy record'; }, 1500);
    });
  }

  /** Takes a session answer as the truth and draws it. */
  async function adopt(session, ctx, { animate = true } = {}) {
    if (!ctx.live()) return; // a new game replaced this one meanwhile
    const before = state.shown;
    state.session = session;
    state.shownToMove = null;
    state.pending = null;
    state.hint = null;
    if (session.ai_search) {
      const r = session.ai_search;
      state.search = { report: r, label: `The AI's search for ${r.to_move}: it played ${r.best_move.notation}` };
    }
    const last = session.moves.length ? session.moves[session.moves.length - 1] : null;
    if (animate) showBoard(session.board, session.moves, last, before);
    else {
      state.shown = session.board;
      state.shownMoves = session.moves.slice();
      state.lastMove = last;
      state.flipped = new Set();
    }
    state.forbidden = [];
    // Black's forbidden points, under the rules that have them (the answer
    // is empty under the others).
    if (state.game.forbidden_points && session.status === 'ongoing' && session.to_move === 'X') {
      const described = await api('POST', '/v1/position', positionBody(session, session.moves), { ...ctx, quiet: true });
      if (ctx.live()) state.forbidden = described.forbidden || [];
    }
  }

  /** Draws `board` after `move`, marking what it changed since the last drawing. */
  function showBoard(board, moves, move, before = state.shown) {
    const placed = new Set();
    const flipped = new Set();
    if (before && before.length === board.length) {
      board.forEach((row, r) => {
        for (let c = 0; c < row.length; c++) {
          const was = before[r][c];
          const now = row[c];
          if (was === now || now === '.') continue;
          (was === '.' ? placed : flipped).add(`${r},${c}`);
        }
      });
    }
    state.shown = board;
    state.shownMoves = moves.slice();
    state.lastMove = move;
    state.flipped = flipped;
    state.animate = { placed, flipped };
  }

  function restoreSessionBoard() {
    const s = state.session;
    if (!s) return;
    state.shown = s.board;
    state.shownToMove = null;
    state.shownMoves = s.moves.slice();
    state.lastMove = s.moves.length ? s.moves[s.moves.length - 1] : null;
    state.flipped = new Set();
    render();
  }

  // ---------- rules the page needs to know (only to draw) ----------

  function positionBody(session, moves) {
    const body = { game: session.game, moves };
    if (state.game && state.game.sizes.length > 1) body.size = session.size;
    if (session.rules) body.rules = session.rules;
    return body;
  }

  function aiPlays(session, side) {
    return session.ai.plays === 'both' || session.ai.plays === side;
  }

  function isPlayersTurn() {
    const s = state.session;
    return Boolean(s) && s.status === 'ongoing' && !aiPlays(s, s.to_move) && !state.busy;
  }

  /** In a game where a side with no move passes, whether the side to move must. */
  function mustPass(session) {
    const moves = session.legal_moves;
    return Boolean(state.game && state.game.passes) && moves.length === 1 && moves[0] === 'pass';
  }

  function playerSide(session) {
    if (session.ai.plays === 'X') return 'O';
    if (session.ai.plays === 'O') return 'X';
    return null;
  }

  function emptyBoard(game, size) {
    if (game.sizes.length > 1 && size) return Array.from({ length: size }, () => '.'.repeat(size));
    return game.start.slice();
  }

  /** `b3` → {row: 2, col: 1}; Connect Four's column digits are not cells. */
  function parseCell(notation) {
    const m = /^([a-z])(\d+)$/.exec(notation || '');
    if (!m) return null;
    return { row: Number(m[2]) - 1, col: m[1].charCodeAt(0) - 97 };
  }

  function cellName(row, col) {
    return String.fromCharCode(97 + col) + String(row + 1);
  }

  /** The column (0-based) a move names, where moves are column digits. */
  function columnOf(notation) {
    if (!state.game || !state.game.column_notation || !/^\d+$/.test(notation || '')) return null;
    return Number(notation) - 1;
  }

  /** Where a move sits on the board drawn now (a column move: its column's top disc). */
  function cellOf(notation, board) {
    const col = columnOf(notation);
    if (col === null) return parseCell(notation);
    for (let row = 0; row < board.length; row++) if (board[row][col] !== '.') return { row, col };
    return null;
  }

  /** The empty cell a column move would fill: discs drop to the lowest one. */
  function landingCell(notation, board) {
    const col = columnOf(notation);
    if (col === null) return null;
    for (let row = board.length - 1; row >= 0; row--) if (board[row][col] === '.') return { row, col };
    return null;
  }

  /** How the game is drawn: its own looks over the defaults. */
  function lookOf(game) {
    return {
      board: game.gravity ? 'frame' : 'felt', // an upright frame of columns, or a grid of squares
      pieces: 'stones',
      lastMove: 'dot',
      lastDot: 'Red dot',
      radius: 0.42,
      lastRadius: 0.16,
      colours: null,
      ...LOOKS[game.name],
    };
  }

  function sideName(side) {
    const colours = state.game && lookOf(state.game).colours;
    if (!colours) return side;
    return `${side} (${side === 'X' ? colours[0] : colours[1]})`;
  }

  /** The legend of the marks the board may show. */
  function legendText(game, look) {
    const parts = [look.lastMove === 'square' ? 'Shaded square: the last move.' : `${look.lastDot}: the last move.`];
    if (game.gravity) parts.push('Dashed rings: where your disc would land.');
    if (game.flips) parts.push('Blue dot: the discs it turned. Dark dots: your legal moves.');
    if (game.forbidden_points && state.forbidden.length) parts.push('Red ×: forbidden for black.');
    return parts.join(' ');
  }

  // ---------- drawing ----------

  function render() {
    renderBoard();
    renderStatus();
    renderControls();
    renderSearch();
    renderMoves();
  }

  function svg(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function renderBoard() {
    const game = state.game;
    const board = state.shown;
    if (!game || !board) return;
    const rows = board.length;
    const cols = board[0].length;
    const look = lookOf(game);
    const w = cols + MARGIN + PAD;
    const h = rows + MARGIN + PAD;
    // The game's own class for its colours; the look's and the flags' for the rest.
    const classes = ['board', `board-${game.name}`, `look-${look.board}`, `pieces-${look.pieces}`];
    if (game.gravity) classes.push('columns');
    el.board.className = classes.join(' ');
    el.legend.textContent = legendText(game, look);
    el.board.style.aspectRatio = `${w} / ${h}`;

    const root = svg('svg', {
      viewBox: `${-MARGIN} ${-MARGIN} ${w} ${h}`,
      'aria-hidden': 'true',
      focusable: 'false',
      class: 'drawing',
    });
    const animate = state.animate;
    state.animate = null;
    drawGrid(root, game, look, rows, cols);

    const session = state.session;
    const playerTurn = isPlayersTurn();
    const legal = new Set(session && playerTurn ? session.legal_moves : []);
    const last = state.lastMove ? cellOf(state.lastMove, board) : null;
    const winning = session && session.status === 'win' && sameBoard(board, session.board)
      ? session.winning_line.map(parseCell).filter(Boolean) : [];
    const winSet = new Set(winning.map((p) => `${p.row},${p.col}`));

    if (last && look.lastMove === 'square') {
      svg('rect', { x: last.col + 0.06, y: last.row + 0.06, width: 0.88, height: 0.88, rx: 0.06, class: 'last-move' }, root);
    }
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const piece = board[r][c];
        if (piece === '.') continue;
        const key = `${r},${c}`;
        const classes = [];
        if (animate && animate.placed.has(key)) classes.push(game.gravity ? 'drop' : 'place');
        if (animate && animate.flipped.has(key)) classes.push('flip');
        if (winSet.has(key)) classes.push('winning');
        drawPiece(root, look, piece, r, c, classes);
        if (state.flipped.has(key)) svg('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.09, class: `flip-mark on-${piece}` }, root);
      }
    }
    // Marks: legal moves, forbidden points, the last move, the hint, the pending move.
    // Where moves must turn discs only some empty squares are moves: mark them.
    if (game.flips) {
      for (const m of legal) {
        const p = parseCell(m);
        if (p) svg('circle', { cx: p.col + 0.5, cy: p.row + 0.5, r: 0.12, class: 'legal-dot' }, root);
      }
    }
    if (game.gravity && playerTurn) {
      for (const m of legal) {
        const p = landingCell(m, board);
        if (p) svg('circle', { cx: p.col + 0.5, cy: p.row + 0.5, r: 0.2, class: 'legal-ring' }, root);
      }
    }
    for (const f of state.forbidden) {
      const p = parseCell(f);
      if (!p) continue;
      const x = p.col + 0.5;
      const y = p.row + 0.5;
      const d = 0.18;
      const g = svg('g', { class: 'forbidden' }, root);
      svg('line', { x1: x - d, y1: y - d, x2: x + d, y2: y + d }, g);
      svg('line', { x1: x - d, y1: y + d, x2: x + d, y2: y - d }, g);
    }
    if (last && look.lastMove === 'dot') {
      svg('circle', { cx: last.col + 0.5, cy: last.row + 0.5, r: look.lastRadius, class: `last-dot on-${board[last.row][last.col]}` }, root);
    }
    if (winning.length >= 2) {
      let [a, b] = [winning[0], winning[1]];
      let best = -1;
      for (const p of winning) {
        for (const q of winning) {
          const d = (p.row - q.row) ** 2 + (p.col - q.col) ** 2;
          if (d > best) { best = d; a = p; b = q; }
        }
      }
      svg('line', { x1: a.col + 0.5, y1: a.row + 0.5, x2: b.col + 0.5, y2: b.row + 0.5, class: 'win-line' }, root);
    }
    if (state.hint) {
      const p = cellOf(state.hint.notation, board) || landingCell(state.hint.notation, board);
      if (p) svg('circle', { cx: p.col + 0.5, cy: p.row + 0.5, r: 0.36, class: 'hint-ring' }, root);
    }
    if (state.pending && session) {
      const p = parseCell(state.pending) || landingCell(state.pending, board);
      if (p) drawPiece(root, look, session.to_move, p.row, p.col, ['pending']);
    }

    const old = el.board.querySelector('svg');
    if (old) old.replaceWith(root);
    else el.board.prepend(root);
    renderOverlay(game, rows, cols, board, legal, playerTurn);
  }

  function sameBoard(a, b) {
    return a.length === b.length && a.every((row, i) => row === b[i]);
  }

  function drawGrid(root, game, look, rows, cols) {
    const labels = svg('g', { class: 'labels' }, root);
    const text = (x, y, s) => {
      const t = svg('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, labels);
      t.textContent = s;
    };
    if (game.column_notation) {
      // Moves name columns alone: number the columns, not the cells.
      for (let c = 0; c < cols; c++) text(c + 0.5, -MARGIN / 2 - 0.08, String(c + 1));
    } else {
      for (let c = 0; c < cols; c++) text(c + 0.5, -MARGIN / 2 - 0.08, String.fromCharCode(97 + c));
      for (let r = 0; r < rows; r++) text(-MARGIN / 2 - 0.05, r + 0.5, String(r + 1));
    }
    if (look.board === 'frame') {
      svg('rect', { x: -0.12, y: -0.12, width: cols + 0.24, height: rows + 0.24, rx: 0.25, class: 'frame' }, root);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) svg('circle', { cx: c + 0.5, cy: r + 0.5, r: look.radius, class: 'hole' }, root);
      }
      return;
    }
    const lines = svg('g', { class: 'lines' }, root);
    if (look.board === 'wood') {
      // Stones on the intersections, with a go board's star points.
      root.prepend(svg('rect', { x: -0.25, y: -0.25, width: cols + 0.5, height: rows + 0.5, class: 'wood' }));
      for (let i = 0; i < rows; i++) svg('line', { x1: 0.5, y1: i + 0.5, x2: cols - 0.5, y2: i + 0.5 }, lines);
      for (let i = 0; i < cols; i++) svg('line', { x1: i + 0.5, y1: 0.5, x2: i + 0.5, y2: rows - 0.5 }, lines);
      const stars = rows === 15 ? [3, 7, 11] : rows === 19 ? [3, 9, 15] : [3, 16];
      for (const r of stars) {
        for (const c of stars) svg('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.08, class: 'star' }, root);
      }
    } else if (look.board === 'paper') {
      root.prepend(svg('rect', { x: 0, y: 0, width: cols, height: rows, class: 'paper' }));
      for (let i = 1; i < rows; i++) svg('line', { x1: 0.08, y1: i, x2: cols - 0.08, y2: i }, lines);
      for (let i = 1; i < cols; i++) svg('line', { x1: i, y1: 0.08, x2: i, y2: rows - 0.08 }, lines);
    } else {
      // Discs inside squares, with four dots two squares in from the corners.
      root.prepend(svg('rect', { x: 0, y: 0, width: cols, height: rows, class: 'felt' }));
      for (let i = 0; i <= rows; i++) svg('line', { x1: 0, y1: i, x2: cols, y2: i }, lines);
      for (let i = 0; i <= cols; i++) svg('line', { x1: i, y1: 0, x2: i, y2: rows }, lines);
      for (const r of [2, rows - 2]) for (const c of [2, cols - 2]) svg('circle', { cx: c, cy: r, r: 0.06, class: 'star' }, root);
    }
  }

  function drawPiece(root, look, piece, r, c, classes) {
    const x = c + 0.5;
    const y = r + 0.5;
    const cls = [`piece`, `p-${piece}`, ...classes].join(' ');
    if (look.pieces === 'marks') {
      const g = svg('g', { class: cls }, root);
      if (piece === 'X') {
        const d = 0.27;
        svg('line', { x1: x - d, y1: y - d, x2: x + d, y2: y + d }, g);
        svg('line', { x1: x - d, y1: y + d, x2: x + d, y2: y - d }, g);
      } else {
        svg('circle', { cx: x, cy: y, r: 0.29 }, g);
      }
      return g;
    }
    const g = svg('g', { class: cls }, root);
    if (classes.includes('drop')) g.style.setProperty('--drop', `${-(r + 1 + MARGIN)}px`);
    svg('circle', { cx: x, cy: y, r: look.radius }, g);
    return g;
  }

  /** Real buttons over the drawing, one per cell (per column where discs drop). */
  function renderOverlay(game, rows, cols, board, legal, playerTurn) {
    const columns = game.gravity;
    const count = columns ? cols : rows * cols;
    const key = `${game.name}:${rows}x${cols}`;
    let grid = el.board.querySelector('.cells');
    if (!grid || state.overlayKey !== key) {
      if (grid) grid.remove();
      grid = document.createElement('div');
      grid.className = 'cells';
      grid.setAttribute('role', 'group');
      grid.setAttribute('aria-label', columns ? `${game.title} board, ${cols} columns` : `${game.title} board, ${rows} by ${cols}`);
      const w = cols + MARGIN + PAD;
      const h = rows + MARGIN + PAD;
      grid.style.left = `${(MARGIN / w) * 100}%`;
      grid.style.top = `${(MARGIN / h) * 100}%`;
      grid.style.width = `${(cols / w) * 100}%`;
      grid.style.height = `${(rows / h) * 100}%`;
      grid.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
      grid.style.gridTemplateRows = columns ? '1fr' : `repeat(${rows}, 1fr)`;
      for (let i = 0; i < count; i++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'cell';
        const notation = columns ? String(i + 1) : cellName(Math.floor(i / cols), i % cols);
        b.dataset.cell = notation;
        b.dataset.index = String(i);
        grid.appendChild(b);
      }
      grid.addEventListener('click', (e) => {
        const b = e.target.closest('button.cell');
        if (!b || b.getAttribute('aria-disabled') === 'true') return;
        state.focus = Number(b.dataset.index);
        play(b.dataset.cell);
      });
      grid.addEventListener('keydown', (e) => moveFocus(e, columns ? 1 : rows, cols));
      el.board.appendChild(grid);
      state.overlayKey = key;
      state.focus = columns ? Math.floor(cols / 2) : Math.floor(rows / 2) * cols + Math.floor(cols / 2);
    }
    const session = state.session;
    const over = session && session.status !== 'ongoing';
    grid.dataset.turn = session ? session.to_move : '';
    grid.querySelectorAll('button.cell').forEach((b, i) => {
      const notation = b.dataset.cell;
      let label;
      let open;
      if (columns) {
        open = board[0][i] === '.';
        const filled = board.filter((row) => row[i] !== '.').length;
        label = `Column ${notation}, ${filled} of ${rows} filled`;
      } else {
        const piece = board[Math.floor(i / cols)][i % cols];
        open = piece === '.';
        label = `${notation}, ${piece === '.' ? 'empty' : sideName(piece)}`;
        if (state.forbidden.includes(notation)) label += ', forbidden for black';
        else if (game.flips && legal.has(notation)) label += ', legal move';
      }
      if (state.lastMove === notation) label += ', last move';
      if (state.hint && state.hint.notation === notation) label += ', hint';
      const usable = playerTurn && open && !over;
      b.setAttribute('aria-label', label);
      b.setAttribute('aria-disabled', usable ? 'false' : 'true');
      b.classList.toggle('open', usable);
      b.classList.toggle('legal', legal.has(notation));
      b.tabIndex = i === state.focus ? 0 : -1;
    });
  }

  /** Arrow keys move along the board; only one cell is in the Tab order. */
  function moveFocus(e, rows, cols) {
    const b = e.target.closest('button.cell');
    if (!b) return;
    let i = Number(b.dataset.index);
    const r = Math.floor(i / cols);
    const c = i % cols;
    const moves = {
      ArrowLeft: [r, Math.max(0, c - 1)], ArrowRight: [r, Math.min(cols - 1, c + 1)],
      ArrowUp: [Math.max(0, r - 1), c], ArrowDown: [Math.min(rows - 1, r + 1), c],
      Home: [r, 0], End: [r, cols - 1],
    };
    if (!(e.key in moves)) return;
    e.preventDefault();
    const [nr, nc] = moves[e.key];
    i = nr * cols + nc;
    const buttons = b.parentElement.querySelectorAll('button.cell');
    buttons.forEach((x, j) => { x.tabIndex = j === i ? 0 : -1; });
    state.focus = i;
    buttons[i].focus();
  }

  function renderStatus() {
    const s = state.session;
    let text;
    let mode;
    let elapsed = '';
    if (state.busy === 'thinking' || state.busy === 'hint') {
      // The side to move in the position drawn; X moves first in every game.
      const side = state.shownToMove || (s ? s.to_move : 'X');
      text = state.busy === 'hint'
        ? `Searching a hint for ${sideName(side)}…`
        : `The AI is thinking for ${sideName(side)}…`;
      elapsed = `${((performance.now() - state.busySince) / 1000).toFixed(1)} s`;
      mode = 'thinking';
    } else if (!s) {
      text = state.busy ? 'Starting a game…' : 'No game. Press New game.';
      mode = 'loading';
    } else if (s.status === 'win') {
      const you = playerSide(s);
      const who = you === null ? `${sideName(s.winner)} wins.` : s.winner === you ? `You win! ${sideName(s.winner)} wins.` : `The AI wins: ${sideName(s.winner)} wins.`;
      text = `Game over. ${who}${discCount(s.board)}`;
      mode = 'over';
    } else if (s.status === 'draw') {
      text = `Game over. A draw.${discCount(s.board)}`;
      mode = 'over';
    } else if (aiPlays(s, s.to_move)) {
      text = state.autoplay && state.paused ? `Paused. ${sideName(s.to_move)} to move.` : `${sideName(s.to_move)} to move (the AI).`;
      mode = state.paused ? 'paused' : 'ai-turn';
      text += discCount(s.board);
    } else {
      text = mustPass(s) ? `You (${sideName(s.to_move)}) have no move: press Pass.` : `Your move: you play ${sideName(s.to_move)}.`;
      text += discCount(s.board);
      mode = 'your-turn';
    }
    // Say what the AI just played (the board alone does not tell a screen reader).
    const lastAi = s && s.ai_search && !state.busy && sameBoard(state.shown, s.board) ? s.ai_search : null;
    if (lastAi && mode !== 'thinking') {
      const where = state.game.column_notation ? `in column ${lastAi.best_move.notation}` : lastAi.best_move.notation;
      const played = lastAi.best_move.pass ? 'passed' : `played ${where}`;
      text = `The AI ${played} as ${sideName(lastAi.to_move)}. ${text}`;
    }
    // A request of the player's own is on its way.
    if (state.busy === 'loading' && mode === 'your-turn') mode = 'busy';
    // The live region changes only when the words do; the running seconds
    // sit outside it, so a screen reader is not interrupted ten times a second.
    if (el.status.textContent !== text) el.status.textContent = text;
    el.status.dataset.state = mode;
    el.statusBox.dataset.state = mode;
    el.elapsed.textContent = elapsed;
    el.board.setAttribute('aria-busy', state.busy ? 'true' : 'false');
    el.board.classList.toggle('thinking', mode === 'thinking');
  }

  /** Where moves turn discs, the count tells the score. */
  function discCount(board) {
    if (!state.game || !state.game.flips) return '';
    const count = (p) => board.reduce((n, row) => n + row.split(p).length - 1, 0);
    return ` Discs: X ${count('X')}, O ${count('O')}.`;
  }

  function renderControls() {
    const s = state.session;
    const busy = Boolean(state.busy);
    el.undo.disabled = busy || !s || s.moves.length === 0;
    el.copyRecord.disabled = busy || !s;
    el.hint.disabled = !isPlayersTurn();
    el.pass.hidden = !(s && isPlayersTurn() && mustPass(s));
    el.pause.hidden = !state.autoplay;
    el.pause.textContent = state.paused ? 'Resume' : 'Pause';
    el.pause.setAttribute('aria-pressed', state.paused ? 'true' : 'false');
    el.pause.disabled = !s || s.status !== 'ongoing';
    // Stop plays the best move found so far, so it waits for the first depth.
    el.stop.hidden = !state.live;
    el.stop.disabled = !(state.live && state.live.best());
  }

  function renderSearch() {
    const found = state.search;
    if (!found) {
      el.searchWho.textContent = 'No search yet.';
      for (const d of [el.sDepth, el.sScore, el.sNodes, el.sTime, el.sNps, el.sStopped]) d.textContent = '–';
      el.pv.replaceChildren();
      return;
    }
    const r = found.report;
    el.searchWho.textContent = found.label;
    el.sDepth.textContent = `${r.depth} ${r.depth === 1 ? 'ply' : 'plies'}`;
    el.sScore.textContent = scoreText(r);
    el.sNodes.textContent = r.nodes.toLocaleString('en');
    el.sTime.textContent = `${r.time_ms.toLocaleString('en')} ms`;
    el.sNps.textContent = `${r.nps.toLocaleString('en')} nodes/s`;
    el.sStopped.textContent = r.source === 'book'
      ? 'opening book: result proven'
      : { depth: 'reached the depth', time: 'time ran out', nodes: 'node budget ran out', cancelled: 'stopped', proven: 'result proven', running: 'still searching…' }[r.stopped] || r.stopped;
    el.pv.replaceChildren(...r.pv.map((m) => {
      const li = document.createElement('li');
      li.textContent = m;
      return li;
    }));
  }

  /** The score from the searching side's view: proven results in words. */
  function scoreText(r) {
    const side = r.to_move;
    const p = r.proven;
    if (p) {
      const plies = `${p.plies} ${p.plies === 1 ? 'ply' : 'plies'}`;
      const by = p.disc_diff !== undefined && p.disc_diff !== null ? ` (by ${Math.abs(p.disc_diff)} discs)` : '';
      if (p.result === 'win') return `${side} wins in ${plies}${by}`;
      if (p.result === 'loss') return `${side} loses in ${plies}${by}`;
      return 'draw';
    }
    return `${r.score > 0 ? '+' : ''}${r.score} for ${side}`;
  }

  function renderMoves() {
    const s = state.session;
    const moves = s ? state.shownMoves : [];
    const items = moves.map((m, i) => {
      const li = document.createElement('li');
      li.textContent = `${i % 2 === 0 ? 'X' : 'O'} ${m}`;
      return li;
    });
    // Othello passes keep the alternation, so X/O by parity holds for every game.
    el.moves.replaceChildren(...items);
    el.moves.scrollTop = el.moves.scrollHeight;
  }

  // ---------- busy, errors, the API key ----------

  let ticker = null;
  function setBusy(kind) {
    state.busy = kind;
    if (kind) state.busySince = performance.now();
    if (ticker) clearInterval(ticker);
    ticker = kind === 'thinking' || kind === 'hint' ? setInterval(renderStatus, 100) : null;
    renderStatus();
    renderControls();
  }

  function showError(e, retry) {
    let message = e.message || String(e);
    if (e.status === 401) {
      el.auth.hidden = false;
      el.apiKey.value = state.apiKey;
      el.apiKey.focus();
      state.retry = retry;
      message = state.apiKey ? `The API key was refused: ${message}` : `This server needs an API key: ${message}`;
    } else if (e.status === 404 && state.session) {
      message = `This game is no longer on the server (it expired or was removed): ${message} Press New game.`;
    } else if (e.status) {
      message = `The server refused (${e.status}): ${message}`;
    }
    el.errorText.textContent = message;
    el.error.hidden = false;
  }

  function clearError() {
    el.error.hidden = true;
    el.errorText.textContent = '';
  }

  function readStore(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }

  function writeStore(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      // Storage may be off (private mode); the page works without it.
    }
  }

  // ---------- setup form ----------

  function fillOptions(select, values, label) {
    select.replaceChildren(...values.map((v) => {
      const o = document.createElement('option');
      o.value = String(v);
      o.textContent = label ? label(v) : String(v);
      return o;
    }));
  }

  function onGameChange(saved) {
    const game = state.games.find((g) => g.name === el.game.value) || state.games[0];
    el.sizeField.hidden = game.sizes.length <= 1;
    el.rulesField.hidden = game.rules.length <= 1;
    fillOptions(el.size, game.sizes, (v) => `${v} × ${v}`);
    el.size.value = String(saved && saved.size ? saved.size : game.default_size);
    fillOptions(el.rules, game.rules);
    el.rules.value = (saved && saved.rules) || game.default_rules || '';
    el.depth.max = String(game.max_depth);
    el.depth.value = String(saved && saved.depth ? Math.min(saved.depth, game.max_depth) : game.default_depth);
    el.timeMs.max = String(state.maxTimeMs);
    el.timeMs.value = String(saved && saved.time_ms ? saved.time_ms : Math.min(game.default_time_ms, state.maxTimeMs));
    el.level.value = String(saved && saved.level ? saved.level : 5);
    el.depthHint.textContent = `plies, 1–${game.max_depth} (default ${game.default_depth})`;
    el.timeHint.textContent = `ms per move, up to ${state.maxTimeMs}`;
    onRulesChange();
  }

  /** Renju is played on 15×15 only. */
  function onRulesChange() {
    const renju = el.rules.value === 'renju';
    for (const o of el.size.options) o.disabled = renju && o.value !== '15';
    if (renju) el.size.value = '15';
    onStrengthChange();
  }

  function onStrengthChange() {
    el.depth.disabled = !el.byDepth.checked;
    el.timeMs.disabled = !el.byTime.checked;
    el.level.disabled = !el.byLevel.checked;
  }

  function clampInt(value, min, max, fallback) {
    const n = Math.round(Number(value));
    if (!Number.isFinite(n) || value === '') return fallback;
    return Math.min(max, Math.max(min, n));
  }

  /** `a, b or c`. */
  function listOf(words) {
    return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Settings and start moves from the page's query string, if it names a game. */
  function fromLink(params) {
    const game = state.games.find((g) => g.name === params.get('game'));
    if (!game) return null;
    const settings = { game: game.name };
    const size = Number(params.get('size'));
    if (game.sizes.includes(size)) settings.size = size;
    if (game.rules.includes(params.get('rules'))) settings.rules = params.get('rules');
    if (['X', 'O', 'ai'].includes(params.get('side'))) settings.side = params.get('side');
    const moves = (params.get('moves') || '').split(/[\s,]+/).filter(Boolean);
    return { settings, moves };
  }

  async function start() {
    const ok = await run('loading', async (ctx) => {
      const listed = await api('GET', '/v1/games', undefined, ctx);
      state.games = listed.games;
      state.maxTimeMs = listed.max_time_ms;
    });
    if (state.games.length) el.gameList.textContent = listOf(state.games.map((g) => g.title));
    if (!ok) return;
    el.auth.hidden = true;
    let saved = null;
    try {
      saved = JSON.parse(readStore(SETTINGS_STORE) || 'null');
    } catch {
      saved = null;
    }
    if (saved && !state.games.some((g) => g.name === saved.game)) saved = null;
    // A link may name the game and the moves to start from:
    // /?game=gomoku&rules=renju&side=X&moves=h8,h9,i8
    const link = fromLink(new URLSearchParams(location.search));
    if (link) {
      saved = { ...(saved || {}), ...link.settings };
      state.startMoves = link.moves;
    }
    fillOptions(el.game, state.games.map((g) => g.name), (n) => state.games.find((g) => g.name === n).title);
    el.game.value = saved ? saved.game : state.games[0].name;
    if (saved && ['X', 'O', 'ai'].includes(saved.side)) el.side.value = saved.side;
    if (saved && saved.strength === 'time') el.byTime.checked = true;
    if (saved && saved.strength === 'level') el.byLevel.checked = true;
    onGameChange(saved);
    newGame();
  }

  el.setup.addEventListener('submit', (e) => {
    e.preventDefault();
    if (state.games.length) newGame();
    else start();
  });
  el.game.addEventListener('change', () => onGameChange(null));
  el.rules.addEventListener('change', onRulesChange);
  el.byDepth.addEventListener('change', onStrengthChange);
  el.byTime.addEventListener('change', onStrengthChange);
  el.byLevel.addEventListener('change', onStrengthChange);
  el.restart.addEventListener('click', () => (state.games.length ? newGame() : start()));
  el.undo.addEventListener('click', undo);
  el.hint.addEventListener('click', hint);
  el.stop.addEventListener('click', () => {
    if (state.live && state.live.best()) state.live.stop();
  });
  el.pass.addEventListener('click', () => play('pass'));
  el.pause.addEventListener('click', () => {
    state.paused = !state.paused;
    render();
    if (!state.paused) autoplay();
  });
  el.errorClose.addEventListener('click', clearError);
  el.copyRecord.addEventListener('click', copyRecord);
  el.loadRecord.addEventListener('click', () => {
    el.recordForm.hidden = !el.recordForm.hidden;
    el.loadRecord.setAttribute('aria-expanded', String(!el.recordForm.hidden));
    if (!el.recordForm.hidden) el.recordText.focus();
  });
  el.recordForm.addEventListener('submit', (e) => {
    e.preventDefault();
    loadRecord();
  });
  el.copyCurl.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(el.curl.textContent);
      el.copyCurl.textContent = 'Copied';
    } catch {
      // No clipboard outside secure contexts: select the text instead.
      getSelection().selectAllChildren(el.curl);
      el.copyCurl.textContent = 'Selected';
    }
    setTimeout(() => { el.copyCurl.textContent = 'Copy'; }, 1500);
  });
  el.auth.addEventListener('submit', (e) => {
    e.preventDefault();
    state.apiKey = el.apiKey.value.trim();
    writeStore(KEY_STORE, state.apiKey || null);
    el.auth.hidden = true;
    clearError();
    const retry = state.retry;
    state.retry = null;
    if (!state.games.length) start();
    else if (retry) retry();
  });
  el.apiKeyForget.addEventListener('click', () => {
    state.apiKey = '';
    el.apiKey.value = '';
    writeStore(KEY_STORE, null);
  });

  start();
})();
