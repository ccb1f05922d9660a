// What every part of the page shares: its elements, the state of the game
// on show, and what the browser keeps between visits (the API key and the
// last settings).

export const KEY_STORE = 'gameai.apiKey';
export const SETTINGS_STORE = 'gameai.settings';

/** The page's elements by role. Module scripts run after the document is parsed, so they are all there. */
const $ = (id) => document.getElementById(id);
export const el = {
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

/** The game on show and the action in flight. */
export const state = {
  games: [],
  maxTimeMs: 10000,
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

export function readStore(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStore(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage may be off (private mode); the page works without it.
  }
}
