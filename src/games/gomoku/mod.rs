//! Gomoku on 15×15, 19×19 and 20×20 under freestyle, standard (exactly
//! five) and renju rules, with its own threat-space and alpha-beta search.
//!
//! X is black and moves first. Cells are written as a column letter and a
//! row counted from the top (`a1` top-left, `h8` the centre of 15×15).

pub mod board;
pub mod engine;
pub mod eval;
pub mod pattern;
pub mod renju;
mod root;
pub mod seeds;
pub mod tables;
pub mod threat;

use super::notation::{cell_name, parse_cell};
use super::rows::{self, Rows};
use super::{
    Features, Game, GameInfo, MoveError, Part, Player, PositionError, PositionReport, PositionSpec,
    SearchReport, Status,
};
use crate::search::{Limits, TableKind, Workspace};

pub use board::{Board, Cell};
pub use renju::Forbidden;

/// The board sides the service plays.
pub const SIZES: [usize; 3] = [15, 19, 20];
pub const DEFAULT_SIZE: usize = 15;
/// The time budget when a request names none: a strong move in about a second.
pub const DEFAULT_TIME_MS: u64 = 1_000;
/// Iterations stop here unless the request asks for fewer.
pub const MAX_DEPTH: u32 = 60;

/// Which lines win, and what black may not play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Five or more in a row wins.
    Freestyle = 0,
    /// Exactly five wins; six or more does not.
    Standard = 1,
    /// 15×15; black wins with exactly five and may not make a double three,
    /// double four or overline; white wins with five or more.
    Renju = 2,
}

impl Rules {
    pub const ALL: [Rules; 3] = [Rules::Freestyle, Rules::Standard, Rules::Renju];

    pub fn name(self) -> &'static str {
        match self {
            Rules::Freestyle => "freestyle",
            Rules::Standard => "standard",
            Rules::Renju => "renju",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A validated gomoku position.
#[derive(Clone, Debug)]
pub struct Gomoku {
    /// Boxed: the board's incremental state is large next to other games.
    pub board: Box<Board>,
}

impl Gomoku {
    /// The empty board.
    pub fn new(size: usize, rules: Rules) -> Self {
        Self {
            board: Box::new(Board::new(size, rules)),
        }
    }

    pub fn size(&self) -> usize {
        self.board.size
    }

    pub fn rules(&self) -> Rules {
        self.board.rules
    }

    pub fn side_to_move(&self) -> Player {
        self.board.side_to_move()
    }

    /// A cell's name in notation.
    pub fn notation(&self, cell: Cell) -> String {
        let (r, c) = self.board.row_col(cell);
        cell_name(r, c)
    }

    /// Reads a cell name on this board.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        parse_cell(text, self.size(), self.size()).map(|(r, c)| self.board.cell(r, c))
    }

    /// The winner and one winning line, if the game is won.
    pub fn winner(&self) -> Option<(Player, Vec<Cell>)> {
        self.board.winning_lines().into_iter().next()
    }

    /// Plays a move written in notation, refusing occupied, forbidden and
    /// post-game moves.
    pub fn play_notation(&mut self, text: &str) -> Result<(), MoveError> {
        if self.winner().is_some() {
            return Err(MoveError::GameOver("the game is already won".to_owned()));
        }
        let n = self.size();
        let cell = self.parse_cell(text).ok_or_else(|| {
            MoveError::Unreadable(format!(
                "{text:?} is not a cell of a {n}×{n} board (a1..{})",
                cell_name(n - 1, n - 1)
            ))
        })?;
        if !self.board.is_empty(cell) {
            return Err(MoveError::Illegal(format!("{text} is already taken")));
        }
        if self.side_to_move() == Player::X {
            if let Some(f) = self.board.forbidden(cell) {
                return Err(MoveError::Illegal(format!(
                    "{text} is forbidden for black under renju rules ({})",
                    f.name()
                )));
            }
        }
        self.board.play(cell);
        Ok(())
    }

    /// Black's forbidden points (renju only), with their kind.
    pub fn forbidden_points(&mut self) -> Vec<(Cell, Forbidden)> {
        if self.rules() != Rules::Renju {
            return Vec::new();
        }
        let cells = self.board.interior.clone();
        let mut out = Vec::new();
        for c in cells {
            if self.board.is_empty(c) {
                if let Some(f) = self.board.forbidden(c) {
                    out.push((c, f));
                }
            }
        }
        out
    }

    /// Legal moves for the side to move, in row-major order.
    pub fn legal_moves(&mut self) -> Vec<Cell> {
        let cells = self.board.interior.clone();
        cells
            .into_iter()
            .filter(|&c| self.board.is_legal(c))
            .collect()
    }
}

fn from_rows(rows: &[String], size: usize, rules: Rules) -> Result<Gomoku, PositionError> {
    let read = Rows::read(rows, size, size, "this gomoku board")?;
    let mut pos = Gomoku::new(size, rules);
    for (r, c, player) in read.stones() {
        let cell = pos.board.cell(r, c);
        pos.board.put(cell, usize::from(player == Player::O));
    }
    let side = read.side_to_move("stone")?;
    pos.board.set_side(side);
    let lines = pos.board.winning_lines();
    let won = [Player::X, Player::O].map(|p| lines.iter().any(|(w, _)| *w == p));
    rows::check_win(won, side, "five in a row", |_| {
        // Several lines are possible only if one last stone made them all.
        lines[0]
            .1
            .iter()
            .any(|c| lines.iter().all(|(_, l)| l.contains(c)))
    })?;
    Ok(pos)
}

impl Game for Gomoku {
    fn info() -> GameInfo {
        GameInfo {
            name: "gomoku",
            title: "Gomoku",
            sizes: SIZES.iter().map(|&s| s as u32).collect(),
            default_size: DEFAULT_SIZE as u32,
            rules: Rules::ALL.iter().map(|r| r.name()).collect(),
            default_rules: Some(Rules::Freestyle.name()),
            default_depth: MAX_DEPTH,
            max_depth: MAX_DEPTH,
            default_time_ms: DEFAULT_TIME_MS,
            notation: "cell: column letter (a-o on 15×15, a-t on 20×20), then row from the top, 1-based (a1 top-left, h8 the centre of 15×15)",
            start: Gomoku::new(DEFAULT_SIZE, Rules::Freestyle).board.rows(),
            level_depths: [1, 2, 3, 4, 5, 6, 7, 8, 9],
            default_margin: 30,
            mistake_threshold: 300,
            features: Features {
                forbidden_points: true,
                ..Features::default()
            },
        }
    }

    /// Reads and validates a client's position.
    fn parse(spec: &PositionSpec) -> Result<Self, PositionError> {
        let rules = match &spec.rules {
            None => Rules::Freestyle,
            Some(name) => Rules::from_name(name).ok_or_else(|| {
                PositionError::new(
                    Part::Rules,
                    format!("unknown gomoku rules {name:?}; use freestyle, standard or renju"),
                )
            })?,
        };
        let size_ok = |s: usize| SIZES.contains(&s);
        if let Some(size) = spec.size.filter(|&s| !size_ok(s as usize)) {
            return Err(PositionError::new(
                Part::Size,
                format!("gomoku boards are 15, 19 or 20 cells wide, not {size}"),
            ));
        }
        let size = match (&spec.board, spec.size) {
            (Some(rows), given) => {
                let n = rows.len();
                if !size_ok(n) {
                    return Err(PositionError::new(
                        Part::Board,
                        format!("a gomoku board has 15, 19 or 20 rows, got {n}"),
                    ));
                }
                if let Some(given) = given.filter(|&g| g as usize != n) {
                    return Err(PositionError::new(
                        Part::Size,
                        format!("size is {given} but the board has {n} rows"),
                    ));
                }
                n
            }
            (None, given) => given.map_or(DEFAULT_SIZE, |g| g as usize),
        };
        if rules == Rules::Renju && size != 15 {
            return Err(PositionError::new(
                Part::Rules,
                format!("renju is played on 15×15 only, not {size}×{size}"),
            ));
        }
        let pos = match (&spec.board, &spec.moves) {
            (Some(rows), None) => from_rows(rows, size, rules)?,
            (None, Some(moves)) => {
                let mut pos = Gomoku::new(size, rules);
                super::spec::play_moves(&mut pos, moves, |pos, mv| {
                    if pos.board.is_full() {
                        return Err(MoveError::GameOver("the board is full".to_owned()));
                    }
                    pos.play_notation(mv)
                })?;
                pos
            }
            _ => return Err(super::spec::board_xor_moves()),
        };
        rows::check_to_move(spec.to_move, pos.side_to_move(), "stone")?;
        Ok(pos)
    }

    fn describe(&self) -> PositionReport {
        let pos = self;
        let mut pos = pos.clone();
        let winner = pos.winner();
        let mut status = match (&winner, pos.board.is_full()) {
            (Some(_), _) => Status::Win,
            (None, true) => Status::Draw,
            _ => Status::Ongoing,
        };
        let mut legal = Vec::new();
        let mut forbidden = Vec::new();
        if status == Status::Ongoing {
            legal = pos.legal_moves();
            forbidden = pos.forbidden_points();
            // Under renju black may be left with only forbidden points:
            // with no move to play, the game is drawn.
            if legal.is_empty() {
                status = Status::Draw;
            }
        }
        PositionReport {
            to_move: pos.side_to_move(),
            status,
            winner: winner.as_ref().map(|w| w.0),
            winning_line: winner
                .map(|(_, line)| line.iter().map(|&c| pos.notation(c)).collect())
                .unwrap_or_default(),
            legal_moves: legal.iter().map(|&c| pos.notation(c)).collect(),
            forbidden: forbidden.iter().map(|&(c, _)| pos.notation(c)).collect(),
            board: pos.board.rows(),
        }
    }

    fn to_move(&self) -> Player {
        self.side_to_move()
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), MoveError> {
        Gomoku::play_notation(self, notation)
    }

    /// Moves more than two cells away from every stone are left out: the
    /// engine never plays them either.
    fn candidate_moves(&self, report: PositionReport) -> Vec<String> {
        let grid: Vec<&[u8]> = report.board.iter().map(|r| r.as_bytes()).collect();
        let size = grid.len();
        let stones: Vec<(usize, usize)> = (0..size)
            .flat_map(|r| (0..size).map(move |c| (r, c)))
            .filter(|&(r, c)| grid[r][c] != b'.')
            .collect();
        if stones.is_empty() {
            return report.legal_moves;
        }
        let near: Vec<String> = report
            .legal_moves
            .iter()
            .filter(|m| {
                parse_cell(m, size, size).is_some_and(|(r, c)| {
                    stones
                        .iter()
                        .any(|&(sr, sc)| sr.abs_diff(r) <= 2 && sc.abs_diff(c) <= 2)
                })
            })
            .cloned()
            .collect();
        if near.is_empty() {
            report.legal_moves
        } else {
            near
        }
    }

    fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport {
        root::search(self, limits, ws)
    }

    fn tables() -> Vec<TableKind> {
        vec![TableKind::of::<tables::Tables>()]
    }

    fn prepare(ws: &mut Workspace) {
        for rules in [Rules::Freestyle, Rules::Standard, Rules::Renju] {
            pattern::table(rules);
        }
        board::prepare();
        ws.extra::<tables::Tables>();
    }

    fn cache_key(&self) -> String {
        // The rules decide wins and forbidden points; the rows, the size.
        format!(
            "{}:{}:{}",
            self.board.rules.name(),
            self.to_move().symbol(),
            self.board.rows().join("/")
        )
    }
}
