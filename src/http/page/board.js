// The board: what the page knows of a game (only to draw it; the server is
// the authority on rules), the SVG drawing with its marks, and the buttons
// over it, one per cell (per column where discs drop), that take clicks and
// the keyboard.

import { el, state } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';
const MARGIN = 0.7; // room for coordinates above and left of the board, in cells
const PAD = 0.3; // and below and right of it, for the frame
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

let chosen = () => {};

/** `play(notation)` hears each move the player chooses on the board. */
export function onMoveChosen(play) {
  chosen = play;
}

// ---------- rules the page needs to know (only to draw) ----------

export function aiPlays(session, side) {
  return session.ai.plays === 'both' || session.ai.plays === side;
}

export function isPlayersTurn() {
  const s = state.session;
  return Boolean(s) && s.status === 'ongoing' && !aiPlays(s, s.to_move) && !state.busy;
}

/** In a game where a side with no move passes, whether the side to move must. */
export function mustPass(session) {
  const moves = session.legal_moves;
  return Boolean(state.game && state.game.passes) && moves.length === 1 && moves[0] === 'pass';
}

export function playerSide(session) {
  if (session.ai.plays === 'X') return 'O';
  if (session.ai.plays === 'O') return 'X';
  return null;
}

export function emptyBoard(game, size) {
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

export function sideName(side) {
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

/** Draws `board` after `move`, marking what it changed since the last drawing. */
export function showBoard(board, moves, move, before = state.shown) {
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

// ---------- drawing ----------

function svg(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

export function renderBoard() {
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

export function sameBoard(a, b) {
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
      chosen(b.dataset.cell);
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
