// The session flow: one user action at a time (`run`), a new game, the
// player's move and the AI's, the AI's search streamed live, AI against AI,
// undo and the hint. Every game is a session on the server, which is the
// authority; the page draws what it answers.

import { ApiError, api, apiKey, problemMessage } from './api.js';
import { aiPlays, emptyBoard, isPlayersTurn, showBoard } from './board.js';
import { clearError, render, renderControls, renderSearch, setBusy, showError } from './panels.js';
import { settings } from './setup.js';
import { SETTINGS_STORE, el, state, writeStore } from './state.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one user action at a time, with the page busy meanwhile; every
 * failure ends as a readable message, never a stuck page. `force` (new
 * game) cancels the action in flight.
 */
export async function run(busy, fn, { force = false } = {}) {
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

export function newGame() {
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
export function play(notation) {
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
  return typeof EventSource === 'function' && !apiKey();
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
export async function autoplay() {
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

export function undo() {
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

export function hint() {
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

/** The body of /v1/position and /v1/search for `session` after `moves`. */
function positionBody(session, moves) {
  const body = { game: session.game, moves };
  if (state.game && state.game.sizes.length > 1) body.size = session.size;
  if (session.rules) body.rules = session.rules;
  return body;
}
