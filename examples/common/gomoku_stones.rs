//! Random opening stones, for the gomoku examples that build data.

use gameai::games::gomoku::Gomoku;
use gameai::games::lines::Rng;

/// The random numbers of game (or candidate) `id` of a data set made from
/// `seed`: each stands alone, so a set is the same on any number of threads.
pub fn game_rng(seed: u64, id: usize) -> Rng {
    Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ id as u64)
}

/// Plays `count` stones at random within `reach` rows and columns of the
/// centre of `pos`, alternating colours from the side to move (a cell
/// already taken is drawn again), and returns their names.
pub fn drop_stones(pos: &mut Gomoku, count: usize, reach: usize, rng: &mut Rng) -> Vec<String> {
    let centre = pos.size() / 2;
    let mut moves = Vec::new();
    while moves.len() < count {
        let r = centre - reach + rng.below(2 * reach + 1);
        let c = centre - reach + rng.below(2 * reach + 1);
        let name = gameai::games::notation::cell_name(r, c);
        if pos.play_notation(&name).is_ok() {
            moves.push(name);
        }
    }
    moves
}
