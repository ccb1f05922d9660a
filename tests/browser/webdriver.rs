//! Just enough of the W3C WebDriver protocol to drive headless chromium
//! through chromedriver: sessions, navigation, finding and clicking
//! elements, typing, keys, running a script, window size, screenshots and
//! the console.
//!
//! It speaks JSON over the `reqwest` client the other tests already use, so
//! the browser test adds no dependency (a full client such as `fantoccini`
//! brings about thirty crates, a second ICU among them).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The element reference key of the W3C protocol.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub type Result<T, E = String> = std::result::Result<T, E>;

/// A chromedriver process and one browser session in it; both end on drop.
pub struct Browser {
    http: reqwest::Client,
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless chromium session
    /// whose profile lives in `profile`.
    pub async fn start(chromedriver: &Path, chromium: &Path, profile: &Path) -> Result<Self> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("chromedriver does not start: {e}"))?;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .map_err(|e| e.to_string())?;
        let mut browser = Self {
            http,
            driver,
            port,
            session: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = browser
                .http
                .get(format!("http://127.0.0.1:{port}/status"))
                .send()
                .await;
            if let Ok(reply) = ready {
                let status = reply.json::<Value>().await.unwrap_or_default();
                if status["value"]["ready"] == true {
                    break;
                }
            }
            if Instant::now() > deadline {
                return Err("chromedriver did not become ready".to_owned());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let args = [
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-quic".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--window-size=1280,900".to_owned(),
            format!("--user-data-dir={}", profile.display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": chromium.display().to_string(), "args": args},
        }}});
        let created = browser
            .raw("POST", "/session", Some(capabilities))
            .await
            .map_err(|e| format!("chromium does not start: {e}"))?;
        browser.session = created["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_owned();
        Ok(browser)
    }

    /// One command; answers its `value`, or the driver's error message.
    async fn raw(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value> {
        let url = format!("http://127.0.0.1:{}{path}", self.port);
        let request = match method {
            "GET" => self.http.get(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url).json(&body.unwrap_or_else(|| json!({}))),
        };
        let reply = request.send().await.map_err(|e| e.to_string())?;
        let ok = reply.status().is_success();
        let body: Value = reply.json().await.map_err(|e| e.to_string())?;
        let value = body.get("value").cloned().unwrap_or(Value::Null);
        if ok {
            Ok(value)
        } else {
            Err(format!(
                "{}: {}",
                value["error"].as_str().unwrap_or("error"),
                value["message"]
                    .as_str()
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("")
            ))
        }
    }

    async fn command(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value> {
        self.raw(method, &format!("/session/{}{path}", self.session), body)
            .await
    }

    pub async fn goto(&self, url: &str) -> Result<()> {
        self.command("POST", "/url", Some(json!({"url": url})))
            .await
            .map(drop)
    }

    async fn find(&self, css: &str) -> Result<String> {
        let found = self
            .command(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await
            .map_err(|e| format!("{css}: {e}"))?;
        found[ELEMENT]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{css}: no element reference in {found}"))
    }

    /// Clicks the element `css` selects, as a person would (the driver
    /// scrolls to it and refuses if something covers it).
    pub async fn click(&self, css: &str) -> Result<()> {
        let id = self.find(css).await?;
        self.command("POST", &format!("/element/{id}/click"), None)
            .await
            .map(drop)
            .map_err(|e| format!("click {css}: {e}"))
    }

    /// Types `text` into the element `css` selects.
    pub async fn type_into(&self, css: &str, text: &str) -> Result<()> {
        let id = self.find(css).await?;
        self.command(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({"text": text})),
        )
        .await
        .map(drop)
    }

    /// Sends keys to whatever has the focus (arrows are `\u{E012}`…).
    pub async fn press(&self, keys: &str) -> Result<()> {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|k| {
                [
                    json!({"type": "keyDown", "value": k.to_string()}),
                    json!({"type": "keyUp", "value": k.to_string()}),
                ]
            })
            .collect();
        self.command(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        )
        .await
        .map(drop)
    }

    /// Runs `script` (a function body) in the page and answers its result.
    pub async fn js(&self, script: &str) -> Result<Value> {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
        .await
    }

    /// Polls `script` until it answers something other than null, false or
    /// "", and answers that; fails with `what` after `limit`.
    pub async fn wait_for(&self, what: &str, script: &str, limit: Duration) -> Result<Value> {
        let deadline = Instant::now() + limit;
        loop {
            let value = self.js(script).await?;
            let done =
                !matches!(&value, Value::Null | Value::Bool(false)) && value.as_str() != Some("");
            if done {
                return Ok(value);
            }
            if Instant::now() > deadline {
                return Err(format!("timed out after {limit:?} waiting for {what}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The page's console messages since the last call, as `LEVEL message`
    /// (chromedriver's own extension to the protocol).
    pub async fn console(&self) -> Result<Vec<String>> {
        let entries = self
            .command("POST", "/se/log", Some(json!({"type": "browser"})))
            .await?;
        Ok(entries
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|e| {
                        format!(
                            "{} {}",
                            e["level"].as_str().unwrap_or("?"),
                            e["message"].as_str().unwrap_or("")
                        )
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    pub async fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        self.command(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )
        .await
        .map(drop)
    }

    /// Saves a PNG of the viewport to `path`.
    pub async fn screenshot(&self, path: &Path) -> Result<()> {
        let encoded = self.command("GET", "/screenshot", None).await?;
        let png = base64_decode(encoded.as_str().ok_or("no screenshot data")?)?;
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Close chromium with a plain blocking request (no runtime in
        // `drop`), then chromedriver.
        if !self.session.is_empty() {
            let _ = delete_blocking(self.port, &format!("/session/{}", self.session));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn delete_blocking(port: u16, path: &str) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "DELETE {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    // The reply comes once chromium has closed. chromedriver may keep the
    // connection open after it, so stop at the end of the headers rather
    // than wait for the close.
    let (mut reply, mut chunk) = (Vec::new(), [0u8; 1024]);
    while !reply.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk)? {
            0 => break,
            n => reply.extend_from_slice(&chunk[..n]),
        }
    }
    Ok(())
}

/// Standard base64, as WebDriver sends screenshots.
fn base64_decode(text: &str) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => return Err(format!("not base64: {:?}", byte as char)),
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
    assert_eq!(base64_decode("aGk=").unwrap(), b"hi");
    assert_eq!(base64_decode("YWJj").unwrap(), b"abc");
}
