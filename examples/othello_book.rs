//! Builds othello's opening book (`src/games/othello/book.bin`) with our
//! own search.
//!
//! ```text
//! cargo run --release --example othello_book -- OUT [PLIES] [DEPTH] [MARGIN] [POSITIONS]
//! ```
//!
//! From the start, ply by ply up to PLIES (default 10): every move of a
//! book position is searched DEPTH plies deep (default 12, the move's own
//! ply included) with the service's midgame search; the moves within
//! MARGIN discs of the best (default 2, at most `WIDTH` of them; in the
//! first `ALL_MOVES_PLIES` plies every move) lead to the book positions of
//! the next ply, until POSITIONS positions are in
//! the book (default 2000). Then the values are negamaxed from the last
//! ply back: a move into a book position is worth what that position's
//! best move is worth to the opponent, the other moves what their own
//! search found. Each position keeps its best move, its value and DEPTH.
//! Symmetric positions are one entry. Searches are depth-limited, so the
//! same arguments give the same book on any machine.

use std::collections::HashMap;

#[path = "common/parallel.rs"]
mod parallel;

use gameai::games::othello::bitboard::{Squares, flips, moves};
use gameai::games::othello::book::{self, BookMove, Entry};
use gameai::games::othello::midgame::{DISC, Midgame, MidgameTable};
use gameai::games::othello::{Move, PASS};
use gameai::search::Limits;

/// The most moves of one position that lead on into the book.
const WIDTH: usize = 3;
/// In the first plies every move leads on, whatever its value: the book
/// answers every opening a player may choose.
const ALL_MOVES_PLIES: u32 = 3;

/// A book position (in its stored form) with each move's value for the
/// side to move: its search value, or once known its book value.
struct Node {
    children: Vec<(Move, i32, Option<Position>)>,
}

/// A position in its stored form: the side to move's discs, the opponent's.
type Position = (u64, u64);

fn play(p: u64, o: u64, sq: Move) -> (u64, u64) {
    let f = flips(p, o, sq as usize);
    (o & !f, p | f | 1 << sq)
}

/// The value of `p` to move against `o` after a `depth`-ply search.
fn search_value(table: &mut MidgameTable, p: u64, o: u64, depth: u32) -> i32 {
    let m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            return gameai::games::othello::midgame::game_over_score(p, o);
        }
        return -search_value(table, o, p, depth);
    }
    let limits = Limits::depth(depth);
    let mut order: Vec<Move> = Squares(m).map(|sq| sq as Move).collect();
    let mut value = 0;
    table.new_search();
    for d in 1..=depth {
        let iteration = Midgame::new(table, &limits).root(p, o, &order, d);
        order = iteration.scored.iter().map(|&(mv, _)| mv).collect();
        value = iteration.scored[0].1;
    }
    value
}

/// Each move of `(p, o)` with its value for the side to move, searched on
/// every core, one table each.
fn score_moves(tables: &mut [MidgameTable], p: u64, o: u64, depth: u32) -> Vec<(Move, i32)> {
    let list: Vec<Move> = Squares(moves(p, o)).map(|sq| sq as Move).collect();
    let values = parallel::map_in_order(&list, tables, |table, _, &mv| {
        let (np, no) = play(p, o, mv);
        -search_value(table, np, no, depth - 1)
    });
    list.into_iter().zip(values).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: othello_book OUT [PLIES] [DEPTH] [MARGIN] [POSITIONS]");
        std::process::exit(2);
    };
    let number = |i: usize, default: u32| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (plies, depth, margin, positions) =
        (number(1, 10), number(2, 12), number(3, 2), number(4, 2000));
    let mut tables = parallel::per_core(MidgameTable::default);

    let start = book::canonical(1 << 28 | 1 << 35, 1 << 27 | 1 << 36).0;
    let mut nodes: HashMap<(u64, u64), Node> = HashMap::new();
    let mut frontier = vec![start];
    let mut order: Vec<(u64, u64)> = Vec::new();
    for ply in 0..plies {
        let mut next = Vec::new();
        for &(p, o) in &frontier {
            if nodes.contains_key(&(p, o)) {
                continue;
            }
            if nodes.len() >= positions as usize {
                break;
            }
            let scored = score_moves(&mut tables, p, o, depth);
            let best = scored.iter().map(|&(_, v)| v).max().unwrap_or(0);
            let mut children = Vec::new();
            let mut wide = 0;
            for &(mv, value) in &scored {
                let (np, no) = play(p, o, mv);
                let leads_on = (ply < ALL_MOVES_PLIES
                    || (value >= best - margin as i32 * DISC && wide < WIDTH))
                    && ply + 1 < plies
                    && moves(np, no) != 0;
                let child = leads_on.then(|| {
                    wide += 1;
                    book::canonical(np, no).0
                });
                if let Some(c) = child {
                    next.push(c);
                }
                children.push((mv, value, child));
            }
            nodes.insert((p, o), Node { children });
            order.push((p, o));
        }
        eprintln!("ply {ply}: {} positions in the book", nodes.len());
        frontier = next;
    }

    // Negamax from the deepest positions back to the start.
    let mut values: HashMap<(u64, u64), (Move, i32)> = HashMap::new();
    for key in order.iter().rev() {
        let node = &nodes[key];
        let (mv, value) = node
            .children
            .iter()
            .map(|&(mv, value, child)| {
                let value = child
                    .and_then(|c| values.get(&c))
                    .map_or(value, |&(_, v)| -v);
                (mv, value)
            })
            // The first of the best, in square order.
            .fold(
                (PASS, i32::MIN),
                |best, (mv, v)| {
                    if v > best.1 { (mv, v) } else { best }
                },
            );
        values.insert(*key, (mv, value));
    }
    let mut entries: Vec<Entry> = values
        .iter()
        .map(|(&(p, o), &(mv, score))| Entry {
            p,
            o,
            book: BookMove {
                mv,
                depth,
                score: score.clamp(i16::MIN.into(), i16::MAX.into()),
            },
        })
        .collect();
    entries.sort_unstable_by_key(|e| (e.p, e.o));
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    std::fs::write(out, bytes).expect("cannot write the book");
    let (root_move, root_value) = values[&start];
    eprintln!(
        "{} positions; from the start {} ({:+.1} discs)",
        entries.len(),
        gameai::games::othello::notation(root_move),
        f64::from(root_value) / f64::from(DISC)
    );
}
