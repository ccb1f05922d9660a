//! `gameai healthcheck`: asks a running service's `/healthz`, so that a
//! container's health check needs nothing but the binary itself.
//!
//! One plain HTTP/1.1 request on loopback: a client library would add a
//! TLS stack and a runtime to the binary for a dozen lines.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Where to reach a service that listens on `listen`: an unspecified
/// address (`0.0.0.0`, `[::]`) is reached on the loopback interface.
pub fn target(listen: SocketAddr) -> SocketAddr {
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, listen.port())
}

/// Asks `GET /healthz` of the service listening on `listen`; `Ok` when it
/// answers 200 within `timeout`, else why not.
pub fn check(listen: SocketAddr, timeout: Duration) -> Result<(), String> {
    let addr = target(listen);
    let mut stream = TcpStream::connect_timeout(&addr, timeout)
        .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("cannot ask {addr}: {e}"))?;
    // The status line is all that counts; a health answer is short.
    let mut head = [0u8; 64];
    let mut read = 0;
    while read < head.len() {
        match stream.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) => return Err(format!("no answer from {addr}: {e}")),
        }
        if head[..read].contains(&b'\n') {
            break;
        }
    }
    let text = String::from_utf8_lossy(&head[..read]);
    let status_line = text.lines().next().unwrap_or_default();
    match status_line.split_whitespace().nth(1) {
        Some("200") => Ok(()),
        Some(_) => Err(format!("{addr} answered {status_line:?}")),
        None => Err(format!("{addr} did not answer HTTP")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unspecified_addresses_are_asked_on_loopback() {
        let at = |s: &str| target(s.parse().unwrap()).to_string();
        assert_eq!(at("0.0.0.0:9000"), "127.0.0.1:9000");
        assert_eq!(at("[::]:8080"), "[::1]:8080");
        assert_eq!(at("10.1.2.3:8080"), "10.1.2.3:8080");
    }

    #[test]
    fn nothing_listening_is_unhealthy() {
        // A port just freed: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        assert!(check(addr, Duration::from_millis(500)).is_err());
    }
}
