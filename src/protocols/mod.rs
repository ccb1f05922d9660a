//! Engine protocols on stdin/stdout: the front doors that tournament
//! managers and board GUIs speak, beside the HTTP service.
//!
//! - [`pbrain`]: the Gomocup (Piskvork) protocol for gomoku;
//! - [`nboard`]: the NBoard protocol for othello.
//!
//! Each runs the same game engines, limits and [`Workspace`] as the HTTP
//! routes, on the protocol's own thread: a protocol speaks to one manager,
//! one command at a time, so it needs no pool. A second thread reads
//! stdin, so that a stop command (or the manager going away) reaches a
//! search that is running.
//!
//! [`Workspace`]: crate::search::Workspace

pub mod nboard;
pub mod pbrain;

use std::ffi::OsStr;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::search::StopFlag;

/// An engine protocol to speak on stdin/stdout instead of serving HTTP.
#[derive(Clone, Debug, Subcommand)]
pub enum Protocol {
    /// Play gomoku over the Gomocup (Piskvork) protocol on stdin/stdout.
    ///
    /// For tournament managers and board programs (Piskvork, Yixin-Board,
    /// the Gomocup manager). A copy or link of the binary named `pbrain-*`
    /// speaks it without arguments.
    Pbrain(PbrainArgs),
    /// Play othello over the NBoard protocol on stdin/stdout.
    ///
    /// For the NBoard GUI: add `gameai nboard` as an engine.
    Nboard(NboardArgs),
}

/// `gameai pbrain`'s settings.
#[derive(Clone, Debug, Args)]
pub struct PbrainArgs {
    /// Table memory in MiB, as the service's `--tt-mb` (split as there,
    /// one part of it serves gomoku); the manager's `INFO max_memory` may
    /// lower it.
    #[arg(long, env = "GAMEAI_TT_MB", default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,

    /// Threads each search runs (they share its table); the manager's
    /// `INFO thread_num` overrides it. Above one, the same position may
    /// get another move from one search to the next.
    #[arg(long, env = "GAMEAI_THREADS", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    pub threads: u64,
}

/// The most threads a protocol front end's search runs.
pub const MAX_THREADS: u64 = 256;

impl PbrainArgs {
    /// The table budget in bytes.
    pub fn table_bytes(&self) -> usize {
        (self.tt_mb as usize) << 20
    }
}

/// `gameai nboard`'s settings.
#[derive(Clone, Debug, Args)]
pub struct NboardArgs {
    /// Table memory in MiB, as the service's `--tt-mb` (split as there,
    /// one part of it serves othello).
    #[arg(long, env = "GAMEAI_TT_MB", default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,

    /// The longest a `go` or `hint` thinks, in milliseconds: NBoard gives
    /// depths, not clocks (`ping` stops a search sooner).
    #[arg(long, env = "GAMEAI_MAX_TIME_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_time_ms: u64,

    /// Threads each search runs (they share its tables). Above one, the
    /// same position may get another move from one search to the next.
    #[arg(long, env = "GAMEAI_THREADS", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    pub threads: u64,
}

impl NboardArgs {
    /// The table budget in bytes.
    pub fn table_bytes(&self) -> usize {
        (self.tt_mb as usize) << 20
    }
}

/// Speaks `protocol` until its manager ends it or closes stdin.
pub fn run(protocol: &Protocol) -> io::Result<()> {
    match protocol {
        Protocol::Pbrain(args) => pbrain::run(args),
        Protocol::Nboard(args) => nboard::run(args),
    }
}

/// True when the program was started as `pbrain-…` (its file name, as
/// Gomocup managers require of an engine), which speaks pbrain with no
/// arguments.
pub fn invoked_as_pbrain(argv0: &OsStr) -> bool {
    Path::new(argv0)
        .file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|name| name.to_ascii_lowercase().starts_with("pbrain-"))
}

/// A line from the manager and when it arrived: a move's clock starts when
/// its command was read, not when the protocol got round to it.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

/// Stdin, read on its own thread.
pub struct Input {
    lines: Receiver<Line>,
    /// The stop flag of the search running now, if any.
    thinking: Arc<Mutex<Option<StopFlag>>>,
}

impl Input {
    /// Starts reading stdin. A line whose first word is one of
    /// `stop_words` (compared without case) also stops the running
    /// search at once, and is then handled in its turn like any other;
    /// the end of stdin stops it too.
    pub fn spawn(stop_words: &'static [&'static str]) -> Self {
        let (tx, lines) = channel();
        let thinking: Arc<Mutex<Option<StopFlag>>> = Arc::default();
        let running = Arc::clone(&thinking);
        let stop_running = move || {
            if let Ok(slot) = running.lock() {
                if let Some(stop) = slot.as_ref() {
                    stop.stop();
                }
            }
        };
        std::thread::Builder::new()
            .name("stdin".to_owned())
            .spawn(move || {
                let stdin = io::stdin();
                let mut stdin = stdin.lock();
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match stdin.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    // Managers on Windows end lines with CR LF; a stray
                    // byte that is not UTF-8 must not end the session.
                    let text = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\r', '\n'])
                        .to_owned();
                    let first = text.split_whitespace().next().unwrap_or("");
                    if stop_words.iter().any(|w| w.eq_ignore_ascii_case(first)) {
                        stop_running();
                    }
                    let line = Line {
                        text,
                        at: Instant::now(),
                    };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
                stop_running();
            })
            .expect("spawning the stdin reader");
        Self { lines, thinking }
    }

    /// The next line; `None` once stdin is closed.
    pub fn next(&self) -> Option<Line> {
        self.lines.recv().ok()
    }

    /// Registers `stop` as the running search's flag until the guard drops.
    pub fn thinking(&self, stop: &StopFlag) -> Thinking<'_> {
        if let Ok(mut slot) = self.thinking.lock() {
            *slot = Some(stop.clone());
        }
        Thinking(self)
    }
}

/// While alive, a stop word stops the registered search.
pub struct Thinking<'a>(&'a Input);

impl Drop for Thinking<'_> {
    fn drop(&mut self) {
        if let Ok(mut slot) = self.0.thinking.lock() {
            *slot = None;
        }
    }
}

/// Writes one line to the manager and flushes it (managers read pipes,
/// and wait for whole lines).
pub fn say(text: impl std::fmt::Display) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pbrain_names_are_recognised_from_the_file_name() {
        for name in [
            "pbrain-gameai",
            "/usr/local/bin/pbrain-gameai",
            "PBRAIN-x.exe",
        ] {
            assert!(invoked_as_pbrain(OsStr::new(name)), "{name}");
        }
        for name in ["gameai", "/tmp/pbrain-dir/gameai", "pbrain", "my-pbrain-x"] {
            assert!(!invoked_as_pbrain(OsStr::new(name)), "{name}");
        }
    }
}
