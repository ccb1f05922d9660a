//! The shell examples of a Markdown page: its ```` ```sh ```` blocks, each
//! cut into commands (as `bash` reads them) and the output each shows.

use std::path::Path;
use std::process::{Command as Process, Stdio};

/// A page's examples, in order.
pub struct Page {
    /// The page, from the repository's root.
    pub name: String,
    pub blocks: Vec<Block>,
}

/// One ```` ```sh ```` block.
pub struct Block {
    /// Where the block opens (1-based).
    pub line: usize,
    pub run: Run,
    pub commands: Vec<Command>,
}

/// Whether the runner runs a block, from its fence's words after `sh`.
#[derive(Debug, PartialEq, Eq)]
pub enum Run {
    Always,
    /// `needs=a,b`: when these programs are installed.
    Needs(Vec<String>),
    /// `skip=reason`: never; the reason is one of the runner's.
    Skip(String),
}

/// One command and the output shown after it.
pub struct Command {
    /// Where it starts (1-based).
    pub line: usize,
    pub text: String,
    /// The `# ` lines right after it, without the `# `.
    pub shown: Vec<String>,
}

/// Fence languages that are shell but not `sh`: refused, so that no shell
/// example escapes the runner by its spelling.
const OTHER_SHELLS: [&str; 5] = ["bash", "shell", "console", "zsh", "shell-session"];

/// Reads the page at `root/name`.
pub fn read(root: &Path, name: &str) -> Result<Page, String> {
    let text = std::fs::read_to_string(root.join(name)).map_err(|e| format!("{name}: {e}"))?;
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut body = Vec::new();
        for (n, inner) in lines.by_ref() {
            if inner.trim_start().starts_with("```") {
                break;
            }
            // A block inside a list item is indented as its fence is.
            let spaces = inner.len() - inner.trim_start_matches(' ').len();
            body.push((n + 1, inner[spaces.min(indent)..].to_owned()));
        }
        let mut words = info.split_whitespace();
        let language = words.next().unwrap_or("");
        if OTHER_SHELLS.contains(&language) {
            return Err(format!(
                "{name}:{}: a shell example is fenced ```sh (the docs test runs those); use ```text for output",
                at + 1
            ));
        }
        if language != "sh" {
            continue;
        }
        let run = run_of(words.collect()).map_err(|e| format!("{name}:{}: {e}", at + 1))?;
        let commands = commands(&body).map_err(|e| format!("{name}:{e}"))?;
        blocks.push(Block {
            line: at + 1,
            run,
            commands,
        });
    }
    Ok(Page {
        name: name.to_owned(),
        blocks,
    })
}

fn run_of(words: Vec<&str>) -> Result<Run, String> {
    match words.as_slice() {
        [] => Ok(Run::Always),
        [word] => match word.split_once('=') {
            Some(("needs", programs)) if !programs.is_empty() => {
                Ok(Run::Needs(programs.split(',').map(str::to_owned).collect()))
            }
            Some(("skip", reason)) if !reason.is_empty() => Ok(Run::Skip(reason.to_owned())),
            _ => Err(format!(
                "```sh {word}: neither needs=PROGRAMS nor skip=REASON"
            )),
        },
        _ => Err(format!(
            "```sh {}: one needs= or skip= at most",
            words.join(" ")
        )),
    }
}

/// Cuts a block into commands: lines are gathered until `bash -n` reads
/// them as complete (quotes closed, `\` continued, loops ended); `# ` lines
/// right after a command are its shown output, and a blank line ends them.
fn commands(body: &[(usize, String)]) -> Result<Vec<Command>, String> {
    let mut commands: Vec<Command> = Vec::new();
    let mut pending: Option<Command> = None;
    let mut shows = false;
    for (n, line) in body {
        if let Some(command) = pending.as_mut() {
            command.text.push('\n');
            command.text.push_str(line);
            if complete(&command.text) {
                commands.extend(pending.take());
                shows = true;
            }
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            shows = false;
        } else if let Some(comment) = trimmed.strip_prefix('#') {
            if shows && let Some(last) = commands.last_mut() {
                last.shown
                    .push(comment.strip_prefix(' ').unwrap_or(comment).to_owned());
            }
        } else {
            let command = Command {
                line: *n,
                text: line.clone(),
                shown: Vec::new(),
            };
            if complete(&command.text) {
                commands.push(command);
                shows = true;
            } else {
                pending = Some(command);
            }
        }
    }
    match pending {
        Some(command) => Err(format!("{}: the command does not end", command.line)),
        None => Ok(commands),
    }
}

/// Whether `bash` reads `text` as whole commands.
fn complete(text: &str) -> bool {
    if text.trim_end().ends_with('\\') {
        return false;
    }
    Process::new("bash")
        .args(["-n", "-c", text])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("bash runs")
        .success()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<Command> {
        let body: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .map(|(n, l)| (n + 1, l.to_owned()))
            .collect();
        commands(&body).unwrap()
    }

    #[test]
    fn commands_end_where_bash_says_and_show_the_comments_after_them() {
        let commands = parse(
            "# prose\ncurl -s x \\\n  -d '{\"a\":\n 1}'\n# {\"b\":2}\n#  …\n\n# more prose\nfor n in 1 2; do\n  echo $n\ndone\necho done   # a note\n",
        );
        assert_eq!(commands.len(), 3);
        assert_eq!(commands[0].line, 2);
        assert_eq!(commands[0].shown, ["{\"b\":2}", " …"]);
        assert!(commands[1].text.ends_with("done") && commands[1].shown.is_empty());
        assert_eq!(commands[2].text, "echo done   # a note");
    }

    #[test]
    fn fences_say_what_runs() {
        assert_eq!(run_of(vec![]), Ok(Run::Always));
        assert_eq!(
            run_of(vec!["needs=redis-server,haproxy"]),
            Ok(Run::Needs(vec!["redis-server".into(), "haproxy".into()]))
        );
        assert_eq!(run_of(vec!["skip=cargo"]), Ok(Run::Skip("cargo".into())));
        assert!(run_of(vec!["sometimes"]).is_err());
        assert!(run_of(vec!["skip="]).is_err());
    }
}
