//! The `gameai` binary: read config, start tracing, serve, shut down
//! gracefully; or, with a subcommand (or named `pbrain-*`), speak an engine
//! protocol on stdin/stdout.

use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::Parser;
use gameai::config::{Cli, Config, LogFormat};
use gameai::protocols;
use gameai::{AppState, app};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

fn main() -> std::io::Result<()> {
    require_cpu_features();
    let mut args: Vec<_> = std::env::args_os().collect();
    if args
        .first()
        .is_some_and(|a| protocols::invoked_as_pbrain(a))
    {
        // Tournament managers start a `pbrain-*` engine without arguments.
        args.insert(1, "pbrain".into());
    }
    let cli = Cli::parse_from(args);
    match cli.protocol {
        Some(protocol) => {
            init_protocol_tracing();
            protocols::run(&protocol)
        }
        None => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
            .block_on(serve(cli.serve)),
    }
}

/// The build targets x86-64-v3 (see `.cargo/config.toml`): on an older
/// CPU, say so and stop rather than die on an illegal instruction later.
fn require_cpu_features() {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if !(std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt"))
    {
        eprintln!(
            "gameai was built for x86-64-v3 (AVX2, BMI2), which this CPU lacks; \
             rebuild with RUSTFLAGS=\"-C target-cpu=native\""
        );
        std::process::exit(1);
    }
}

async fn serve(config: Config) -> std::io::Result<()> {
    init_tracing(config.log);

    let state = AppState::new(config.clone());
    let listener = TcpListener::bind(config.addr).await?;
    tracing::info!(
        addr = %listener.local_addr()?,
        workers = state.pool.workers(),
        queue = config.queue,
        "gameai listening"
    );

    let (signalled_tx, signalled_rx) = tokio::sync::watch::channel(false);
    // The peer's address keys per-client quotas when no API keys are set.
    let service = app(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>();
    let server = axum::serve(listener, service).with_graceful_shutdown({
        let state = state.clone();
        async move {
            shutdown_signal().await;
            tracing::info!("shutting down: finishing in-flight requests");
            state.shutting_down.store(true, Ordering::Relaxed);
            let _ = signalled_tx.send(true);
        }
    });
    let grace = Duration::from_millis(config.shutdown_grace_ms);
    let overrun = async move {
        let mut signalled = signalled_rx;
        let _ = signalled.wait_for(|&s| s).await;
        tokio::time::sleep(grace).await;
    };
    let mut server = std::pin::pin!(server.into_future());
    tokio::select! {
        served = &mut server => served?,
        () = overrun => {
            // Stopped searches answer from their last completed depth; give
            // those answers a moment to go out.
            tracing::warn!("grace period over: stopping the searches still running");
            state.pool.stop_all();
            if let Ok(served) = tokio::time::timeout(Duration::from_secs(2), server).await {
                served?;
            }
        }
    }
    state.pool.close();
    tracing::info!("stopped");
    Ok(())
}

fn init_tracing(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Pretty => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
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
