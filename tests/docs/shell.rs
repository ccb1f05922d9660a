//! One `bash` per page, fed the page's commands one at a time: variables
//! carry from one command to the next as they would in a reader's
//! terminal, and each command's output lands in files of its own.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use super::common::redis::free_port;

/// The longest a command may take.
const COMMAND_LIMIT: Duration = Duration::from_secs(60);
/// What the shell prints after each command, before its exit status.
const DONE: &str = "__gameai_docs_done__";

/// What a command did.
pub struct Outcome {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A `bash` in a process group of its own (so that servers an example
/// starts in the background go with it), in the repository's root.
pub struct Shell {
    child: Child,
    stdin: ChildStdin,
    done: Receiver<i32>,
    dir: PathBuf,
    count: usize,
    /// Ports of the page's examples, and the free ports that stand for them.
    ports: HashMap<u16, u16>,
}

impl Shell {
    /// A shell whose `gameai` is `binary`, and where `localhost:8080`
    /// reaches `server_port`.
    pub fn start(root: &Path, binary: &Path, server_port: u16) -> Self {
        static SHELLS: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "gameai-docs-{}-{}",
            std::process::id(),
            SHELLS.fetch_add(1, Ordering::Relaxed)
        ));
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(binary, bin.join("gameai")).unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![bin];
        paths.extend(std::env::split_paths(&path));
        let mut child = Command::new("bash")
            .args(["--noprofile", "--norc"])
            .current_dir(root)
            .env("PATH", std::env::join_paths(paths).unwrap())
            .env("GAMEAI_ADDR", format!("127.0.0.1:{server_port}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .expect("bash starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, done) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(status) = line.strip_prefix(DONE)
                    && tx.send(status.trim().parse().unwrap_or(-1)).is_err()
                {
                    break;
                }
            }
        });
        let mut shell = Self {
            child,
            stdin,
            done,
            dir,
            count: 0,
            ports: HashMap::from([(8080, server_port)]),
        };
        shell.write("set -o pipefail\n");
        shell
    }

    fn write(&mut self, text: &str) {
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
            .expect("the shell reads its commands");
    }

    /// Runs `text` as the page shows it, its ports mapped.
    pub fn run(&mut self, text: &str) -> Result<Outcome, String> {
        self.count += 1;
        let out = self.dir.join(format!("{}.out", self.count));
        let err = self.dir.join(format!("{}.err", self.count));
        let text = self.map_ports(text);
        self.write(&format!(
            "{{\n{text}\n}} </dev/null >'{}' 2>'{}'\necho \"{DONE} $?\"\n",
            out.display(),
            err.display()
        ));
        let status = match self.done.recv_timeout(COMMAND_LIMIT) {
            Ok(status) => status,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("still running after {} s", COMMAND_LIMIT.as_secs()));
            }
            Err(RecvTimeoutError::Disconnected) => return Err("the shell exited".to_owned()),
        };
        let read =
            |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
        Ok(Outcome {
            status,
            stdout: read(&out),
            stderr: read(&err),
        })
    }

    /// The page's ports as placeholders: 8080 is the page's server, any
    /// other a free port, the same one wherever the page names it.
    fn map_ports(&mut self, text: &str) -> String {
        const BEFORE: [&str; 4] = ["localhost:", "127.0.0.1:", "0.0.0.0:", "--port "];
        let mut mapped = String::with_capacity(text.len());
        let mut rest = text;
        while let Some((at, prefix)) = BEFORE
            .iter()
            .filter_map(|p| rest.find(p).map(|at| (at, *p)))
            .min()
        {
            let start = at + prefix.len();
            mapped.push_str(&rest[..start]);
            rest = &rest[start..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if let Ok(port) = rest[..digits].parse::<u16>() {
                let free = *self.ports.entry(port).or_insert_with(free_port);
                mapped.push_str(&free.to_string());
                rest = &rest[digits..];
            }
        }
        mapped.push_str(rest);
        mapped
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        // The whole group: the shell and whatever it left running.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
