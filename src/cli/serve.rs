//! `moo serve`: the web UI and JSON API on a local port.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};

use anyhow::Context;

/// Arguments of `moo serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo serve                 serve on http://127.0.0.1:8080/
  moo serve --port 0        pick a free port; the printed URL shows which")]
pub struct Args {
    /// The local port to listen on; 0 picks a free one.
    #[arg(long, short = 'p', default_value_t = 8080)]
    port: u16,

    /// Also answer requests whose Host header names NAME (a host name or address, without the
    /// port; repeat for several). localhost, *.localhost, 127.0.0.1 and ::1 are always
    /// answered; any other name is refused, so a web page elsewhere cannot drive the server
    /// through DNS rebinding.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

/// Runs `moo serve` until interrupted.
pub fn run(args: Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        // Loopback only: the server has no authentication, so it must not face the network.
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
            format!("cannot listen on {addr}: is the port in use? try --port 0")
        })?;
        let bound = listener
            .local_addr()
            .context("cannot read the bound address")?;
        // The URL goes to stdout, flushed, so scripts and tests can read the real port at once.
        let mut out = std::io::stdout().lock();
        writeln!(out, "moo is serving on http://{bound}/")?;
        out.flush()?;
        drop(out);
        let mut config = moo_web::Config::default();
        config.allowed_hosts = args.allow_host;
        tokio::select! {
            served = moo_web::serve(listener, config) => {
                served.context("the web server stopped")
            }
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}
