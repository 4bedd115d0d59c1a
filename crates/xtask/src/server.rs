//! Static file server for `www/`: axum + tower-http's `ServeDir` on 127.0.0.1.
//!
//! Every response carries `Cache-Control: no-cache` (browsers revalidate, so a reload picks up
//! a rebuild) and the Content-Security-Policy [`CSP`], and `.wasm` / `.js` / `.mjs` get
//! `application/wasm` / `text/javascript` whatever the MIME table of the day says (browsers
//! refuse streaming wasm compilation and module scripts otherwise). The model lab's default
//! weights (the model cache's folder, [`crate::fetch_model::model_dir`]) are served from the same
//! origin at `models/all-MiniLM-L6-v2/` when that folder exists (CSP `connect-src 'self'`).
//! A file with a gzip copy beside it (`X.gz`, written for `www/pkg/` by every wasm build:
//! [`crate::compress`]) is sent compressed, `Content-Encoding: gzip`, to a browser that accepts
//! it; `www/`'s other files are gzipped on the fly for such a browser (the model's are not). `serve` uses [`serve_command`]; `test` reuses [`spawn`] to get a URL.

use axum::serve::ListenerExt;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use anyhow::{Context, Result};
use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;
use tokio::sync::oneshot;
use tower::ServiceBuilder;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::util::repo_root;
use crate::{toolchain, wasm};

/// The Content-Security-Policy of every response: scripts, styles, workers and fetches from the
/// page's own origin only (no inline script or style, no eval; `'wasm-unsafe-eval'` lets the
/// wasm module compile), images also from `data:` / `blob:` (exported PNGs), media from `blob:`
/// (the WebM recording), any page may embed the playground (`frame-ancestors *`, for iframes),
/// no `<base>`, no form submission, no plugins. `www/index.html` and `www/host.html` carry the
/// same policy in a `<meta>` (minus `frame-ancestors`, which a `<meta>` cannot set) for static
/// hosts.
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
img-src 'self' data: blob:; media-src blob:; worker-src 'self'; connect-src 'self'; \
frame-ancestors *; base-uri 'none'; form-action 'none'; object-src 'none'";

/// Port `serve` tries first when none is given.
pub const DEFAULT_PORT: u16 = 8080;

/// Which port to listen on.
#[derive(Clone, Copy, Debug)]
pub enum PortChoice {
    /// This port or fail.
    Exactly(u16),
    /// This port if free, else any free port.
    Prefer(u16),
    /// Any free port (port 0).
    Any,
}

/// Bind a listener on 127.0.0.1 according to `choice`.
pub fn bind(choice: PortChoice) -> Result<TcpListener> {
    let on = |port| TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    let listener = match choice {
        PortChoice::Exactly(port) => on(port).with_context(|| format!("cannot listen on 127.0.0.1:{port}"))?,
        PortChoice::Prefer(port) => on(port).or_else(|_| on(0)).context("cannot listen on 127.0.0.1")?,
        PortChoice::Any => on(0).context("cannot listen on 127.0.0.1")?,
    };
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// The URL path of the model cache's folder: `/models/all-MiniLM-L6-v2`.
fn model_route() -> String {
    format!("/models/{}", attn_core::model::DEFAULT_MODEL)
}

/// The model cache's folder when it holds the weights (else the route is not served).
fn cached_model() -> Option<PathBuf> {
    crate::fetch_model::model_dir().ok().filter(|d| d.join("model.safetensors").is_file())
}

/// The router serving the files under `dir` (with `index.html` for folders), and `model`'s
/// files at [`model_route`].
pub fn router(dir: &Path, model: Option<&Path>) -> Router {
    let mut r = Router::new();
    if let Some(m) = model {
        r = r.nest_service(&model_route(), ServeDir::new(m));
    }
    // www/'s other files (the modules, styles, the page) gzipped on the fly when the browser
    // accepts it; a response already encoded (a `.gz` copy) is left as it is. The model's
    // weights are not: its 90 MB would cost seconds of gzip per download.
    let files = ServiceBuilder::new()
        .layer(CompressionLayer::new().gzip(true))
        .service(ServeDir::new(dir).precompressed_gzip());
    r.fallback_service(files)
        .layer(middleware::from_fn(fix_content_type))
        .layer(SetResponseHeaderLayer::overriding(CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .layer(SetResponseHeaderLayer::overriding(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)))
}

/// MIME type we insist on for a request path, by extension.
fn content_type_for(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1;
    match ext {
        "wasm" => Some("application/wasm"),
        "js" | "mjs" => Some("text/javascript"),
        _ => None,
    }
}

/// Middleware: set the Content-Type of successful `.wasm` / `.js` responses.
async fn fix_content_type(req: Request, next: Next) -> Response {
    let wanted = content_type_for(req.uri().path());
    let mut response = next.run(req).await;
    if let Some(mime) = wanted.filter(|_| response.status().is_success()) {
        response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(mime));
    }
    response
}

/// Base URL (with trailing slash) of a server listening on `listener`.
fn url_of(listener: &TcpListener) -> Result<String> {
    Ok(format!("http://127.0.0.1:{}/", listener.local_addr()?.port()))
}

/// Serve `dir` on `listener` until `shutdown` resolves (runs its own tokio runtime).
fn serve_blocking(
    dir: PathBuf,
    model: Option<PathBuf>,
    listener: TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    runtime.block_on(async move {
        // TCP_NODELAY on every connection: without it a response written in two pieces (the
        // headers, then a small body) waited for the browser's delayed ACK of the first, about
        // 40 ms per module on Linux, and the page's ~70 modules queue on 6 connections.
        let listener = tokio::net::TcpListener::from_std(listener)?.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                eprintln!("cannot set TCP_NODELAY on a connection: {e}");
            }
        });
        axum::serve(listener, router(&dir, model.as_deref())).with_graceful_shutdown(shutdown).await
    })?;
    Ok(())
}

/// A server running on a background thread; stops when dropped.
pub struct RunningServer {
    /// Base URL with trailing slash, e.g. `http://127.0.0.1:41234/`.
    pub url: String,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Start serving `dir` (and the cached model, when there is one) in the background on a port
/// chosen by `choice`; returns once listening.
pub fn spawn(dir: &Path, choice: PortChoice) -> Result<RunningServer> {
    spawn_serving(dir, cached_model(), choice)
}

/// [`spawn`] with the model folder served at [`model_route`] given (`None`: no model route).
fn spawn_serving(dir: &Path, model: Option<PathBuf>, choice: PortChoice) -> Result<RunningServer> {
    let listener = bind(choice)?;
    let url = url_of(&listener)?;
    let (stop, stopped) = oneshot::channel::<()>();
    let dir = dir.to_path_buf();
    let thread = std::thread::Builder::new().name("static-server".into()).spawn(move || {
        let shutdown = async {
            let _ = stopped.await;
        };
        if let Err(err) = serve_blocking(dir, model, listener, shutdown) {
            eprintln!("xtask: static server stopped: {err:#}");
        }
    })?;
    Ok(RunningServer { url, stop: Some(stop), thread: Some(thread) })
}

/// `cargo xtask serve`: ensure the toolchain, build the wasm, then serve `www/` until killed.
pub fn serve_command(port: Option<u16>) -> Result<()> {
    let root = repo_root();
    toolchain::ensure_wasm_target()?;
    toolchain::ensure_wasm_bindgen_cli(&root)?;
    wasm::build(&root)?;
    crate::bundle::build(&root)?;
    // Held until the server stops: a change to www/'s modules rewrites the bundle.
    let _watcher = crate::bundle::watch(&root)?;
    if let Err(e) = crate::fetch_model::ensure() {
        eprintln!("xtask: warning: the model lab's default model is not served: {e:#}");
    }

    let www = root.join("www");
    if !www.join("index.html").is_file() {
        eprintln!("xtask: warning: {} does not exist yet", www.join("index.html").display());
    }
    let choice = port.map_or(PortChoice::Prefer(DEFAULT_PORT), PortChoice::Exactly);
    let listener = bind(choice)?;
    println!("Serving the playground at {}", url_of(&listener)?);
    serve_blocking(www, cached_model(), listener, std::future::pending())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// Send a plain HTTP/1.1 GET and return the whole response as text (headers lower-cased).
    fn get(url: &str, path: &str) -> String {
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        format!("{}\r\n\r\n{body}", head.to_ascii_lowercase())
    }

    #[test]
    fn serves_files_with_mime_types_and_no_cache() {
        let dir = std::env::temp_dir().join(format!("xtask-server-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("index.html"), "<!doctype html><title>hi</title>").unwrap();
        std::fs::write(dir.join("pkg/m.js"), "export {};").unwrap();
        std::fs::write(dir.join("pkg/m_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();

        let server = spawn(&dir, PortChoice::Any).unwrap();
        assert!(server.url.starts_with("http://127.0.0.1:") && server.url.ends_with('/'));

        let index = get(&server.url, "/");
        assert!(index.starts_with("http/1.1 200"), "{index}");
        assert!(index.contains("content-type: text/html"), "{index}");
        assert!(index.contains("cache-control: no-cache"), "{index}");
        assert!(index.contains("<title>hi</title>"));
        let csp = format!("content-security-policy: {}\r\n", CSP);
        assert!(index.contains(&csp), "{index}");
        assert!(!CSP.contains("unsafe-inline") && !CSP.contains("'unsafe-eval'"));

        let wasm = get(&server.url, "/pkg/m_bg.wasm");
        assert!(wasm.contains("content-type: application/wasm\r\n"), "{wasm}");
        let js = get(&server.url, "/pkg/m.js");
        assert!(js.contains("content-type: text/javascript\r\n"), "{js}");

        assert!(js.contains(&csp), "{js}");

        let missing = get(&server.url, "/nope.js");
        assert!(missing.starts_with("http/1.1 404"), "{missing}");

        drop(server);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn serves_the_model_folder_at_its_route_with_the_same_policy() {
        let root = std::env::temp_dir().join(format!("xtask-server-model-{}", std::process::id()));
        let (www, model) = (root.join("www"), root.join("model"));
        std::fs::create_dir_all(&www).unwrap();
        std::fs::create_dir_all(&model).unwrap();
        std::fs::write(www.join("index.html"), "<!doctype html>").unwrap();
        std::fs::write(model.join("config.json"), r#"{"model_type":"bert"}"#).unwrap();

        let server = spawn_serving(&www, Some(model.clone()), PortChoice::Any).unwrap();
        let config = get(&server.url, &format!("{}/config.json", model_route()));
        assert!(config.starts_with("http/1.1 200"), "{config}");
        assert!(config.ends_with(r#"{"model_type":"bert"}"#), "{config}");
        assert!(config.contains(&format!("content-security-policy: {}\r\n", CSP)), "{config}");
        assert!(CSP.contains("connect-src 'self'"));
        let missing = get(&server.url, &format!("{}/vocab.txt", model_route()));
        assert!(missing.starts_with("http/1.1 404"), "{missing}");
        drop(server);

        let without = spawn_serving(&www, None, PortChoice::Any).unwrap();
        let none = get(&without.url, &format!("{}/config.json", model_route()));
        assert!(none.starts_with("http/1.1 404"), "{none}");
        drop(without);
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// GET `path` with `Accept-Encoding: gzip`: the lower-cased head and the raw body bytes.
    fn get_gzip(url: &str, path: &str) -> (String, Vec<u8>) {
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip, br\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
        let body = response[split + 4..].to_vec();
        let body = if head.contains("transfer-encoding: chunked") { dechunk(&body) } else { body };
        (head, body)
    }

    /// The bytes of a chunked HTTP/1.1 body (`SIZE\r\nDATA\r\n` … `0\r\n\r\n`).
    fn dechunk(mut body: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let line = body.windows(2).position(|w| w == b"\r\n").unwrap();
            let size = usize::from_str_radix(std::str::from_utf8(&body[..line]).unwrap().trim(), 16).unwrap();
            if size == 0 {
                return out;
            }
            out.extend_from_slice(&body[line + 2..line + 2 + size]);
            body = &body[line + 4 + size..];
        }
    }

    #[test]
    fn sends_the_gzip_copy_to_a_browser_that_accepts_it() {
        let dir = std::env::temp_dir().join(format!("xtask-server-gzip-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        let module: Vec<u8> = (0..20_000u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
        std::fs::write(dir.join("pkg/m_bg.wasm"), &module).unwrap();
        std::fs::write(dir.join("pkg/plain.js"), "export {};").unwrap();
        crate::compress::gzip_beside(&dir.join("pkg/m_bg.wasm")).unwrap();
        let server = spawn(&dir, PortChoice::Any).unwrap();

        let (head, body) = get_gzip(&server.url, "/pkg/m_bg.wasm");
        assert!(head.contains("content-encoding: gzip"), "{head}");
        assert!(head.contains("content-type: application/wasm"), "{head}");
        assert!(body.len() < module.len() / 10, "{} of {} bytes", body.len(), module.len());
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut inflated).unwrap();
        assert_eq!(inflated, module);

        let raw = get(&server.url, "/pkg/m_bg.wasm");
        assert!(!raw.contains("content-encoding"), "no Accept-Encoding, no gzip");
        let (plain, body) = get_gzip(&server.url, "/pkg/plain.js");
        assert!(!plain.contains("content-encoding") && body == b"export {};", "a few bytes: the file as it is");
        // A module without a .gz copy is gzipped on the fly.
        let source: String = (0..400).map(|i| format!("export const k{i} = {i};\n")).collect();
        std::fs::write(dir.join("lab.js"), &source).unwrap();
        let (head, body) = get_gzip(&server.url, "/lab.js");
        assert!(head.contains("content-encoding: gzip") && head.contains("content-type: text/javascript"), "{head}");
        let mut inflated = String::new();
        flate2::read::GzDecoder::new(&body[..]).read_to_string(&mut inflated).unwrap();
        assert_eq!(inflated, source);
        assert!(body.len() < source.len() / 3, "{} of {} bytes", body.len(), source.len());
        assert!(!get(&server.url, "/lab.js").contains("content-encoding"), "no Accept-Encoding, no gzip");
        drop(server);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type_for("/pkg/attn_web_bg.wasm"), Some("application/wasm"));
        assert_eq!(content_type_for("/main.mjs"), Some("text/javascript"));
        assert_eq!(content_type_for("/index.html"), None);
        assert_eq!(content_type_for("/"), None);
    }
}
