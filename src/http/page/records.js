// Records: the session copied as a record in its game's own format (SGF,
// GGF, psq or moves), and a pasted record, of whatever game it names,
// loaded as the start of a new game.

import { api } from './api.js';
import { newGame, run } from './session.js';
import { onGameChange } from './setup.js';
import { el, state } from './state.js';

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
export function loadRecord() {
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
export function copyRecord() {
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
