//! The documentation, run: every shell example of the README and of the
//! pages under `docs/` against the real binary, in order, its shown output
//! checked; and the configuration page against the settings the binary
//! knows. So the docs cannot drift from the service.
//!
//! How a page's examples run (`docs/README.md` says it for writers):
//! - A page is one walkthrough. Its ```` ```sh ```` blocks run in order in
//!   one `bash` (a variable set in one command is there in the next), in the
//!   repository's root, with `gameai` on the `PATH` the binary under test,
//!   and with a server of the page's own at `localhost:8080`: the binary
//!   with its defaults, standing for the reader's `cargo run --release`.
//! - Ports are placeholders: after `localhost:`, `127.0.0.1:`, `0.0.0.0:` or
//!   `--port `, 8080 is the page's server and any other port a free one of
//!   the runner's, the same throughout the page.
//! - A command's shown output is the `# ` comment lines right after it; a
//!   blank line ends them (comments after a blank line are prose). How it is
//!   compared, `…` for anything, is in `docs/shown.rs`.
//! - A command fails when it exits non-zero, when its answer is a problem
//!   (an error status line, or problem+json with an error `status`) its
//!   shown output does not name, or when its output does not match.
//! - ```` ```sh needs=PROGRAM,… ```` runs only where those programs are
//!   installed, and says so on stderr where not (a missing `redis-server`
//!   fails instead when `GAMEAI_REQUIRE_REDIS` is set, as in CI);
//!   ```` ```sh skip=REASON ```` never runs, for one of [`SKIP_REASONS`],
//!   and the test says which blocks it skipped and why.
//! - Any other shell fence (`bash`, `console`, …) fails the test.

mod common;
#[path = "docs/pages.rs"]
mod pages;
#[path = "docs/shell.rs"]
mod shell;
#[path = "docs/shown.rs"]
mod shown;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use common::Server;
use common::require::REDIS;
use pages::{Page, Run};
use shell::Shell;

/// Why an example may never run here, by the word its fence gives.
const SKIP_REASONS: [(&str, &str); 5] = [
    (
        "cargo",
        "a cargo command: it builds, or runs this test suite; the examples run the binary cargo built for the tests",
    ),
    (
        "container",
        "builds or runs the container image: a container engine and minutes (`.ci/container` checks the image)",
    ),
    ("kubernetes", "needs a Kubernetes cluster"),
    (
        "compose",
        "starts the compose stack: a container engine and the image",
    ),
    (
        "match",
        "plays engine matches or benchmarks: minutes to hours, some against engines built outside the project",
    ),
];

/// Pages that run at once (each with its own server).
const PARALLEL_PAGES: usize = 4;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every page under `docs/`, from the repository's root.
fn page_names() -> Vec<String> {
    let root = root();
    let mut pages: Vec<String> = files_under(&root.join("docs"))
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| {
            path.strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    pages.sort();
    pages.insert(0, "README.md".to_owned());
    pages
}

/// Says something on stderr past the test harness's capture.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn installed(program: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
}

/// Runs a page's examples; the error says where and why it failed.
fn run_page(page: &Page) -> Result<usize, String> {
    let runs: Vec<_> = page
        .blocks
        .iter()
        .filter(|block| match &block.run {
            Run::Always => true,
            Run::Skip(reason) => {
                let (_, why) = SKIP_REASONS
                    .iter()
                    .find(|(word, _)| word == reason)
                    .expect("checked before");
                say(&format!(
                    "SKIPPED {}:{} (skip={reason}): {why}",
                    page.name, block.line
                ));
                false
            }
            Run::Needs(programs) => {
                let missing: Vec<&String> = programs.iter().filter(|p| !installed(p)).collect();
                for program in &missing {
                    let what = format!("{program} (on PATH), for {}:{}", page.name, block.line);
                    if program.as_str() == "redis-server" {
                        REDIS.missing(&what);
                    } else {
                        say(&format!("SKIPPED {what}: not installed"));
                    }
                }
                missing.is_empty()
            }
        })
        .collect();
    if runs.iter().all(|b| b.commands.is_empty()) {
        return Ok(0);
    }
    let server = Server::start(&[]);
    let port: u16 = server.base.rsplit(':').next().unwrap().parse().unwrap();
    let mut shell = Shell::start(&root(), Path::new(env!("CARGO_BIN_EXE_gameai")), port);
    let mut count = 0;
    for block in runs {
        for command in &block.commands {
            let place = format!("{}:{}", page.name, command.line);
            let outcome = shell
                .run(&command.text)
                .map_err(|e| format!("{place}: {e}\n{}", command.text))?;
            let fail = |why: String| {
                format!(
                    "{place}: {why}\n--- the command\n{}\n--- its output\n{}\n--- its errors\n{}",
                    command.text,
                    clip(&outcome.stdout),
                    clip(&outcome.stderr)
                )
            };
            if outcome.status != 0 {
                return Err(fail(format!("exit status {}", outcome.status)));
            }
            if let Some(status) = shown::problem_status(&outcome.stdout)
                && !shown::names_status(&command.shown, status)
            {
                return Err(fail(format!(
                    "the answer is a {status}, and the example does not show it"
                )));
            }
            shown::check(&command.shown, &outcome.stdout).map_err(fail)?;
            count += 1;
        }
    }
    Ok(count)
}

fn clip(text: &str) -> String {
    let clipped: String = text.chars().take(3000).collect();
    if clipped.len() < text.len() {
        format!("{clipped}\n[… {} bytes more]", text.len() - clipped.len())
    } else {
        clipped
    }
}

#[test]
fn every_shell_example_runs_as_shown() {
    let root = root();
    let mut pages = Vec::new();
    let mut failures = Vec::new();
    for name in page_names() {
        match pages::read(&root, &name) {
            Ok(page) => pages.push(page),
            Err(e) => failures.push(e),
        }
    }
    for page in &pages {
        for block in &page.blocks {
            if let Run::Skip(reason) = &block.run
                && !SKIP_REASONS.iter().any(|(word, _)| word == reason)
            {
                failures.push(format!(
                    "{}:{}: skip={reason} is not one of the reasons tests/docs.rs knows",
                    page.name, block.line
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    let queue = Mutex::new(pages.iter().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..PARALLEL_PAGES {
            scope.spawn(|| {
                loop {
                    let Some(page) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let result = run_page(page);
                    results.lock().unwrap().push((page.name.clone(), result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let commands: usize = results.iter().filter_map(|(_, r)| r.as_ref().ok()).sum();
    let per_page: Vec<String> = results
        .iter()
        .map(|(name, r)| match r {
            Ok(n) => format!("{name} {n}"),
            Err(_) => format!("{name} failed"),
        })
        .collect();
    say(&format!(
        "docs: {commands} example commands run ({})",
        per_page.join(", ")
    ));
    let failures: Vec<String> = results.into_iter().filter_map(|(_, r)| r.err()).collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    assert!(commands > 0, "no example ran");
}

/// A setting the binary reads: its flag and default, where it has them.
#[derive(Debug, Default)]
struct Setting {
    flag: Option<String>,
    default: Option<String>,
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// Every `GAMEAI_*` setting the binary knows: those its `--help` (and its
/// subcommands' help) names, and those its code reads directly.
fn settings_of_the_binary() -> BTreeMap<String, Setting> {
    let mut settings = BTreeMap::new();
    for args in [
        &["--help"][..],
        &["help", "pbrain"],
        &["help", "nboard"],
        &["help", "healthcheck"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_gameai"))
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "gameai {args:?}");
        read_help(&String::from_utf8(output.stdout).unwrap(), &mut settings);
    }
    for path in files_under(&root().join("src")) {
        if path.extension().is_some_and(|e| e == "rs") {
            let code = std::fs::read_to_string(&path).unwrap();
            for (at, _) in code.match_indices("env::var(\"GAMEAI_") {
                let name = code[at + "env::var(\"".len()..].split('"').next().unwrap();
                settings.entry(name.to_owned()).or_default();
            }
        }
    }
    settings
}

/// Reads clap's help: an option line (`--flag <VALUE>`), then its text, which
/// ends with `[env: NAME=…]` and perhaps `[default: …]`.
fn read_help(help: &str, settings: &mut BTreeMap<String, Setting>) {
    let mut flag: Option<String> = None;
    let mut text = String::new();
    let mut finish = |flag: &Option<String>, text: &str| {
        let Some(at) = text.find("[env: ") else {
            return;
        };
        let env = &text[at + "[env: ".len()..];
        let name: String = env
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let default = text.find("[default: ").map(|at| {
            text[at + "[default: ".len()..]
                .split(']')
                .next()
                .unwrap()
                .to_owned()
        });
        let setting = settings.entry(name).or_default();
        setting.flag = flag.clone();
        setting.default = setting.default.take().or(default);
    };
    for line in help.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("--").or_else(|| {
            trimmed
                .strip_prefix('-')
                .and_then(|r| r.split_once(", --").map(|(_, f)| f))
        }) {
            finish(&flag, &text);
            text.clear();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            flag = Some(format!("--{name}"));
            text.push_str(rest);
        } else {
            text.push(' ');
            text.push_str(trimmed);
        }
    }
    finish(&flag, &text);
}

/// The configuration page: where every setting is listed.
const CONFIGURATION_PAGE: &str = "docs/operations.md";

#[test]
fn the_configuration_page_lists_every_setting_and_no_other() {
    let settings = settings_of_the_binary();
    assert!(
        settings.contains_key("GAMEAI_ADDR") && settings.contains_key("GAMEAI_CPU"),
        "the help and the code name the settings: {settings:?}"
    );
    let page = std::fs::read_to_string(root().join(CONFIGURATION_PAGE)).unwrap();
    let mut mentioned = BTreeSet::new();
    for (at, _) in page.match_indices("GAMEAI_") {
        let name: String = page[at..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        mentioned.insert(name);
    }
    // The deployment files the page explains read a few variables of their
    // own (HAProxy's addresses, the cluster test's binary).
    let deployment = files_under(&root().join("deploy"))
        .into_iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect::<String>();
    let unknown: Vec<_> = mentioned
        .iter()
        .filter(|m| !settings.contains_key(*m) && !deployment.contains(m.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "{CONFIGURATION_PAGE} names settings that neither the binary nor deploy/ knows: {unknown:?}"
    );
    // The table: | `GAMEAI_X` | `--flag` | default | meaning |
    let mut rows = BTreeMap::new();
    for line in page.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if let [_, name, flag, default, ..] = cells.as_slice()
            && let Some(name) = name.strip_prefix("`GAMEAI_")
        {
            let name = format!("GAMEAI_{}", name.trim_end_matches('`'));
            rows.insert(
                name,
                (flag.trim_matches('`').to_owned(), default.to_owned()),
            );
        }
    }
    let mut wrong: Vec<String> = rows
        .keys()
        .filter(|name| !settings.contains_key(*name))
        .map(|name| format!("{name} has a row, but the binary has no such setting"))
        .collect();
    for (name, setting) in &settings {
        let Some((flag, default)) = rows.get(name) else {
            wrong.push(format!("{name} has no row in the table"));
            continue;
        };
        let flag_shown = (!flag.is_empty()).then(|| flag.clone());
        if flag_shown != setting.flag {
            wrong.push(format!(
                "{name}: the table says flag {flag_shown:?}, the binary {:?}",
                setting.flag
            ));
        }
        if let Some(value) = &setting.default
            && !default.contains(&format!("`{value}`"))
        {
            wrong.push(format!(
                "{name}: the table's default is {default}, the binary's `{value}`"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{CONFIGURATION_PAGE}'s settings table:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_readme_stays_a_front_door() {
    let lines = std::fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines < 350,
        "README.md has {lines} lines: what it does not need to start the service goes under docs/"
    );
    for page in [
        "docs/engines/tictactoe.md",
        "docs/engines/connect4.md",
        "docs/engines/gomoku.md",
        "docs/engines/othello.md",
    ] {
        assert!(
            root().join(page).is_file(),
            "{page} is where its engine's figures go"
        );
    }
}

/// Every relative link of the README and the pages under `docs/` (and the
/// clients' and deployment READMEs) names a file or directory that exists:
/// a moved file breaks the link, and this test says where.
#[test]
fn every_link_between_pages_leads_somewhere() {
    let root = root();
    let mut pages = page_names();
    pages.extend(
        [
            "clients/python/README.md",
            "clients/typescript/README.md",
            "deploy/README.md",
        ]
        .map(str::to_owned),
    );
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let dir = root.join(page).parent().unwrap().to_path_buf();
        let mut in_code = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code {
                continue;
            }
            for (start, _) in line.match_indices("](") {
                let rest = &line[start + 2..];
                let Some(end) = rest.find(')') else { continue };
                let target = &rest[..end];
                let path = target.split('#').next().unwrap_or_default();
                if path.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                if !dir.join(path).exists() {
                    broken.push(format!("{page}: {target}"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
