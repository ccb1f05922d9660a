//! Zobrist keys for positions seen from the side to move.
//!
//! Each (square, owner) pair has a random key and a position's hash is the
//! XOR of the keys of its discs. Rather than XOR up to 64 keys, the keys
//! are pre-combined per byte of the bitboard: `BYTE_KEYS[owner][i][b]` is
//! the XOR of the keys of the squares set in byte value `b` at byte `i`,
//! so a hash is 16 table lookups, with the same value as the per-square sum.

/// splitmix64: a fixed, well-mixed sequence, so hashes are reproducible.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn square_keys() -> [[u64; 64]; 2] {
    let mut keys = [[0; 64]; 2];
    let mut state = 0x0123_4567_89AB_CDEF;
    let mut owner = 0;
    while owner < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (next, key) = splitmix(state);
            state = next;
            keys[owner][sq] = key;
            sq += 1;
        }
        owner += 1;
    }
    keys
}

const fn byte_keys() -> [[[u64; 256]; 8]; 2] {
    let keys = square_keys();
    let mut table = [[[0; 256]; 8]; 2];
    let mut owner = 0;
    while owner < 2 {
        let mut i = 0;
        while i < 8 {
            let mut b = 0;
            while b < 256 {
                let mut h = 0;
                let mut bit = 0;
                while bit < 8 {
                    if b >> bit & 1 == 1 {
                        h ^= keys[owner][i * 8 + bit];
                    }
                    bit += 1;
                }
                table[owner][i][b] = h;
                b += 1;
            }
            i += 1;
        }
        owner += 1;
    }
    table
}

static BYTE_KEYS: [[[u64; 256]; 8]; 2] = byte_keys();

/// The Zobrist key of the position with `p` to move against `o`.
#[inline]
pub fn hash(p: u64, o: u64) -> u64 {
    let mut h = 0;
    for i in 0..8 {
        h ^= BYTE_KEYS[0][i][(p >> (8 * i)) as usize & 0xFF];
        h ^= BYTE_KEYS[1][i][(o >> (8 * i)) as usize & 0xFF];
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_tables_equal_the_per_square_sum() {
        let keys = square_keys();
        let (p, o) = (0x0000_0018_3C00_0081u64, 0x8100_2400_0018_0000u64);
        let mut expected = 0;
        for (sq, (kp, ko)) in keys[0].iter().zip(&keys[1]).enumerate() {
            if p >> sq & 1 == 1 {
                expected ^= kp;
            }
            if o >> sq & 1 == 1 {
                expected ^= ko;
            }
        }
        assert_eq!(hash(p, o), expected);
        assert_ne!(hash(p, o), hash(o, p), "the side to move matters");
    }
}
