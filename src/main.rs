//! The `gameai` binary: read config, start tracing, serve, shut down
//! gracefully; or, with a subcommand (or named `pbrain-*`), speak an engine
//! protocol on stdin/stdout.

use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::Parser;
use gameai::config::{Cli, Command, Config, LogFormat};
use gameai::{AppState, app};
use gameai::{healthcheck, protocols};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than the system's: see `Cargo.toml`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::io::Result<()> {
    let mut args: Vec<_> = std::env::args_os().collect();
    if args
        .first()
        .is_some_and(|a| protocols::invoked_as_pbrain(a))
    {
        // Tournament managers start a `pbrain-*` engine without arguments.
        args.insert(1, "pbrain".into());
    }
    let cli = Cli::parse_from(args);
    match cli.command {
        Some(Command::Protocol(protocol)) => {
            init_protocol_tracing();
            protocols::run(&protocol)
        }
        Some(Command::Healthcheck(check)) => {
            let timeout = Duration::from_millis(check.timeout_ms);
            match healthcheck::check(cli.serve.addr, timeout) {
                Ok(()) => Ok(()),
                Err(why) => {
                    eprintln!("unhealthy: {why}");
                    std::process::exit(1);
                }
            }
        }
        None => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
            .block_on(serve(cli.serve)),
    }
}

async fn serve(config: Config) -> std::io::Result<()> {
    // Held to the end: dropping it writes out the lines still queued.
    let _log = init_tracing(config.log);

    let state = AppState::new(config.clone());
    // Listening only once every worker has made its tables, so that the
    // first searches do not wait for them.
    let pool = state.pool.clone();
    tokio::task::spawn_blocking(move || pool.wait_prepared())
        .await
        .map_err(std::io::Error::other)?;
    let listener = TcpListener::bind(config.addr).await?;
    tracing::info!(
        addr = %listener.local_addr()?,
        workers = state.pool.workers(),
        queue = config.queue,
        cpu = gameai::cpu::level(),
        "gameai listening"
    );

    // The stop, in three steps: on the signal readiness turns 503 while
    // everything is still served (the drain), so balancers take the
    // replica out before anything is refused; then the listener closes and
    // in-flight requests finish; at the end of the grace the searches
    // still running are stopped and answer with their best move so far.
    let grace = Duration::from_millis(config.shutdown_grace_ms);
    let drain = Duration::from_millis(config.drain_ms).min(grace);
    let (signalled_tx, signalled_rx) = tokio::sync::watch::channel(false);
    tokio::spawn({
        let state = state.clone();
        async move {
            shutdown_signal().await;
            tracing::info!(
                drain_ms = drain.as_millis() as u64,
                grace_ms = grace.as_millis() as u64,
                "shutting down: readiness answers 503, requests are still served"
            );
            state.shutting_down.store(true, Ordering::Relaxed);
            let _ = signalled_tx.send(true);
        }
    });
    let signalled = move || {
        let mut signalled = signalled_rx.clone();
        async move {
            let _ = signalled.wait_for(|&s| s).await;
        }
    };
    let limits = gameai::http::server::ConnectionLimits::from(&config);
    let server = gameai::http::server::serve(listener, app(state.clone()), limits, {
        let signalled = signalled();
        async move {
            signalled.await;
            tokio::time::sleep(drain).await;
            tracing::info!("drained: no new connections; finishing in-flight requests");
        }
    });
    let overrun = {
        let signalled = signalled();
        async move {
            signalled.await;
            tokio::time::sleep(grace).await;
        }
    };
    let mut server = std::pin::pin!(server);
    tokio::select! {
        served = &mut server => served?,
        () = overrun => {
            // Stopped searches answer from their last completed depth; give
            // those answers a moment to go out.
            tracing::warn!("grace period over: stopping the searches still running");
            state.pool.stop_all();
            if let Ok(served) = tokio::time::timeout(Duration::from_secs(1), server).await {
                served?;
            }
        }
    }
    state.pool.close();
    tracing::info!("stopped");
    Ok(())
}

/// Log lines go to stdout from a thread of their own, so a request never
/// waits for the terminal or the log collector; a full queue waits rather
/// than drop lines, so no error goes unlogged. Colour only for a person at
/// a terminal: a log collector or a file would keep the escape codes as
/// noise.
fn init_tracing(format: LogFormat) -> tracing_appender::non_blocking::WorkerGuard {
    use std::io::IsTerminal;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("log-writer")
        .finish(std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::stdout().is_terminal());
    match format {
        LogFormat::Pretty => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
    guard
}

/// Stdout belongs to the protocol: logs go to stderr, warnings only
/// unless RUST_LOG asks for more, and without colours when a GUI keeps
/// them in a log file.
fn init_protocol_tracing() {
    use std::io::IsTerminal;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
