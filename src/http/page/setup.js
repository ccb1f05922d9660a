// The setup form: the game, its size and rules, the side the player takes
// and the AI's strength, filled from /v1/games and read back as the
// settings of the next game.

import { el, state } from './state.js';

export function fillOptions(select, values, label) {
  select.replaceChildren(...values.map((v) => {
    const o = document.createElement('option');
    o.value = String(v);
    o.textContent = label ? label(v) : String(v);
    return o;
  }));
}

export function onGameChange(saved) {
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
export function onRulesChange() {
  const renju = el.rules.value === 'renju';
  for (const o of el.size.options) o.disabled = renju && o.value !== '15';
  if (renju) el.size.value = '15';
  onStrengthChange();
}

export function onStrengthChange() {
  el.depth.disabled = !el.byDepth.checked;
  el.timeMs.disabled = !el.byTime.checked;
  el.level.disabled = !el.byLevel.checked;
}

function clampInt(value, min, max, fallback) {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n) || value === '') return fallback;
  return Math.min(max, Math.max(min, n));
}

/** Settings and start moves from the page's query string, if it names a game. */
export function fromLink(params) {
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

/** The form's choices, each clamped to what the game and the server allow. */
export function settings() {
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
