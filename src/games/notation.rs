//! Cell notation shared by the board games: column letter then row number
//! from the top, 1-based (`a1` is the top-left corner).

/// Writes the cell at `row`, `col` (0-based): `(0, 0)` is `a1`.
pub fn cell_name(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Reads a cell name on a board of `rows` × `cols`; `None` if malformed or
/// off the board. Letters are case-insensitive.
pub fn parse_cell(text: &str, rows: usize, cols: usize) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let col = (letter as u8 - b'a') as usize;
    let digits = chars.as_str();
    if digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0')
    {
        return None;
    }
    let row = digits.parse::<usize>().ok()? - 1;
    (row < rows && col < cols).then_some((row, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for row in 0..20 {
            for col in 0..20 {
                assert_eq!(parse_cell(&cell_name(row, col), 20, 20), Some((row, col)));
            }
        }
    }

    #[test]
    fn rejects_off_board_and_malformed() {
        for bad in ["", "a", "a0", "d1", "a4", "1a", "aa1", "a01", "a-1", "é1"] {
            assert_eq!(parse_cell(bad, 3, 3), None, "{bad}");
        }
        assert_eq!(parse_cell("C3", 3, 3), Some((2, 2)));
    }
}
