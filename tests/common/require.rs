//! What some tests need from outside the crate: the reference sets in
//! `../shared/data`, `redis-server`, chromium with chromedriver. Without it
//! a test skips and says so; with the need's switch set (`.ci/run` sets all
//! three) the absence fails the test instead, so CI cannot pass by skipping.
//!
//! Standalone on purpose: `ffo.rs` includes it by path, and so serves the
//! othello bench as well as the tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// Something from outside the crate, and the variable that makes it required.
pub struct Need {
    /// Set (to anything but `0` or nothing), a missing need fails the test.
    pub switch: &'static str,
    /// How to provide it, for the message.
    pub remedy: &'static str,
}

/// The reference sets beside the project.
pub const DATA: Need = Need {
    switch: "GAMEAI_REQUIRE_DATA",
    remedy: "the reference sets belong in ../shared/data beside the project",
};

/// A `redis-server` on PATH.
pub const REDIS: Need = Need {
    switch: "GAMEAI_REQUIRE_REDIS",
    remedy: "apt-get install -y redis-server",
};

/// `/usr/bin/chromium` and `/usr/bin/chromedriver`.
pub const BROWSER: Need = Need {
    switch: "GAMEAI_REQUIRE_BROWSER",
    remedy: "apt-get install -y chromium chromium-driver",
};

impl Need {
    /// Whether a missing need fails the test.
    pub fn required(&self) -> bool {
        std::env::var_os(self.switch).is_some_and(|v| !v.is_empty() && v != "0")
    }

    /// Reports that `what` is missing: panics when required; otherwise says
    /// that the running test skips what needs it.
    pub fn missing(&self, what: &str) {
        assert!(
            !self.required(),
            "{} is set but {what} is missing ({})",
            self.switch,
            self.remedy
        );
        // libtest names the test's thread after the test.
        let current = std::thread::current();
        let test = current.name().unwrap_or("a test");
        // Straight to stderr, past the test harness's capture, so the skip
        // shows in a normal `cargo test` run.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED in {test}: {what} is missing ({}); set {} to fail instead",
            self.remedy,
            self.switch
        );
    }

    /// `present`, after reporting `what` as missing when it is not.
    pub fn check(&self, present: bool, what: &str) -> bool {
        if !present {
            self.missing(what);
        }
        present
    }
}

/// `../shared/data/<relative>` (a file or a folder), or `None` once its
/// absence has been reported.
pub fn data(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(relative);
    DATA.check(path.exists(), &path.display().to_string())
        .then_some(path)
}
