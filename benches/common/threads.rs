//! The benches' `threads` modes: the same searches at one thread and at
//! two, side by side (one thread, then two, position by position, so that
//! the machine's drift touches both alike), as a table of nodes and wall
//! time with the median of the per-position time ratios.

use std::time::Instant;

/// Searches each item with one thread and with two (`search(item,
/// threads)` answers its nodes and whether its answer was right), prints
/// a row each and the medians, and answers the median time ratio.
pub fn compare<T>(
    title: &str,
    items: &[T],
    label: impl Fn(&T) -> String,
    mut search: impl FnMut(&T, usize) -> (u64, bool),
) -> f64 {
    println!("\n## {title}: 1 thread against 2\n");
    println!("| position | nodes, 1 | ms, 1 | nodes, 2 | ms, 2 | time ratio | right |");
    println!("|---|---:|---:|---:|---:|---:|---|");
    let mut ratios = Vec::new();
    let mut totals = [0f64; 2];
    let mut wrong = 0;
    for item in items {
        let mut nodes = [0; 2];
        let mut ms = [0f64; 2];
        let mut right = true;
        for (i, threads) in [1, 2].into_iter().enumerate() {
            let start = Instant::now();
            let (n, ok) = search(item, threads);
            ms[i] = start.elapsed().as_secs_f64() * 1e3;
            nodes[i] = n;
            right &= ok;
        }
        totals[0] += ms[0];
        totals[1] += ms[1];
        wrong += usize::from(!right);
        let ratio = ms[1] / ms[0].max(1e-9);
        ratios.push(ratio);
        println!(
            "| {} | {} | {:.1} | {} | {:.1} | {ratio:.2} | {} |",
            label(item),
            nodes[0],
            ms[0],
            nodes[1],
            ms[1],
            if right { "yes" } else { "NO" }
        );
    }
    ratios.sort_by(f64::total_cmp);
    let median = match ratios.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => ratios[n / 2],
        n => (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0,
    };
    println!(
        "\n{title}: {} positions, median time ratio (2 threads / 1) {median:.2}, \
         total {:.0} ms against {:.0} ms ({:.2}); {wrong} answers not right",
        items.len(),
        totals[1],
        totals[0],
        totals[1] / totals[0].max(1e-9),
    );
    median
}
