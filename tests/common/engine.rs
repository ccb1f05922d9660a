//! An engine protocol spoken to the real binary as a subprocess: its
//! stdin, and its stdout (and optionally stderr) lines as they come.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub struct EngineProcess {
    child: Child,
    /// `None` once the test has closed it.
    pub stdin: Option<ChildStdin>,
    pub out: Receiver<String>,
    /// Stderr's lines, when asked for; otherwise stderr is the test's.
    pub err: Option<Receiver<String>>,
}

impl EngineProcess {
    /// Starts `command` with warnings-only logs.
    pub fn spawn(command: &mut Command, capture_stderr: bool) -> Self {
        let mut child = command
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if capture_stderr {
                Stdio::piped()
            } else {
                Stdio::inherit()
            })
            .spawn()
            .expect("the gameai binary starts");
        let stdin = child.stdin.take();
        let out = lines_of(child.stdout.take().unwrap());
        let err = child.stderr.take().map(lines_of);
        Self {
            child,
            stdin,
            out,
            err,
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    /// Waits up to `limit` for the process to exit.
    pub fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines of `stream`, read on their own thread.
fn lines_of(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
