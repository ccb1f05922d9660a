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
//
// The script is split by concern into modules the binary serves beside it
// (no build step): `api.js` the API client, `state.js` the shared state,
// `setup.js` the setup form, `session.js` the session flow, `board.js` the
// board, `panels.js` everything around it, `records.js` records. This one
// starts the page and wires the controls.

import { api, apiKey, onCall, setApiKey } from './api.js';
import { onMoveChosen } from './board.js';
import { clearError, render } from './panels.js';
import { copyRecord, loadRecord } from './records.js';
import { autoplay, hint, newGame, play, run, undo } from './session.js';
import { fillOptions, fromLink, onGameChange, onRulesChange, onStrengthChange } from './setup.js';
import { KEY_STORE, SETTINGS_STORE, el, readStore, state, writeStore } from './state.js';

setApiKey(readStore(KEY_STORE) || '');
onCall((curl) => {
  el.curl.textContent = curl;
});
onMoveChosen(play);

/** `a, b or c`. */
function listOf(words) {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
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
  setApiKey(el.apiKey.value.trim());
  writeStore(KEY_STORE, apiKey() || null);
  el.auth.hidden = true;
  clearError();
  const retry = state.retry;
  state.retry = null;
  if (!state.games.length) start();
  else if (retry) retry();
});
el.apiKeyForget.addEventListener('click', () => {
  setApiKey('');
  el.apiKey.value = '';
  writeStore(KEY_STORE, null);
});

start();
