// Everything around the board: the status line, the controls, the search
// panel, the move list, the busy state and the error message. `render()`
// draws the whole page from `state`.

import { apiKey } from './api.js';
import { aiPlays, isPlayersTurn, mustPass, playerSide, renderBoard, sameBoard, sideName } from './board.js';
import { el, state } from './state.js';

export function render() {
  renderBoard();
  renderStatus();
  renderControls();
  renderSearch();
  renderMoves();
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

export function renderControls() {
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

export function renderSearch() {
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

// ---------- busy and errors ----------

let ticker = null;
export function setBusy(kind) {
  state.busy = kind;
  if (kind) state.busySince = performance.now();
  if (ticker) clearInterval(ticker);
  ticker = kind === 'thinking' || kind === 'hint' ? setInterval(renderStatus, 100) : null;
  renderStatus();
  renderControls();
}

export function showError(e, retry) {
  let message = e.message || String(e);
  if (e.status === 401) {
    el.auth.hidden = false;
    el.apiKey.value = apiKey();
    el.apiKey.focus();
    state.retry = retry;
    message = apiKey() ? `The API key was refused: ${message}` : `This server needs an API key: ${message}`;
  } else if (e.status === 404 && state.session) {
    message = `This game is no longer on the server (it expired or was removed): ${message} Press New game.`;
  } else if (e.status) {
    message = `The server refused (${e.status}): ${message}`;
  }
  el.errorText.textContent = message;
  el.error.hidden = false;
}

export function clearError() {
  el.error.hidden = true;
  el.errorText.textContent = '';
}
