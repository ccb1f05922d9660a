//! A throwaway `redis-server` for the tests that share state through Redis.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::require::REDIS;

/// A `redis-server` on a free loopback port, killed on drop.
pub struct Redis {
    child: Child,
    pub port: u16,
}

/// A loopback port nothing listens on (at the time of asking).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Redis {
    /// Starts Redis on `port` (a free one if `None`), or `None` when the
    /// binary is missing and not required (`GAMEAI_REQUIRE_REDIS`).
    pub fn start(port: Option<u16>) -> Option<Self> {
        let port = port.unwrap_or_else(free_port);
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                REDIS.missing("redis-server (on PATH)");
                return None;
            }
            Err(e) => panic!("redis-server does not start: {e}"),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let addr = format!("127.0.0.1:{port}");
        while !super::answers(&addr, "PING\r\n", "+PONG") {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Self { child, port })
    }

    /// The server's process id (to pause it with SIGSTOP).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
