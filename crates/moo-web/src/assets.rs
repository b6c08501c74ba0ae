//! The web UI: the plain files under `assets/` (HTML, CSS and JavaScript modules, no build
//! step), compiled into the binary, so the server needs nothing on disk and the browser nothing
//! from the network. The static site ships the very same files beside the WebAssembly engine.

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use include_dir::{include_dir, Dir};
use moo_service::{ErrorCode, ServiceError};

use crate::error::ApiError;

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

/// The content type of a file the UI is made of, by its extension.
fn content_type(path: &str) -> Option<&'static str> {
    let (_, extension) = path.rsplit_once('.')?;
    Some(match extension {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "webmanifest" => "application/manifest+json",
        "json" => "application/json",
        _ => return None,
    })
}

/// The file at `path` under `assets/`, or a 404 (in the API's JSON shape, by the guard).
fn asset(path: &str) -> Response {
    let found = ASSETS
        .get_file(path)
        .and_then(|f| Some((content_type(path)?, f.contents())));
    match found {
        Some((content_type, body)) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

pub(crate) fn routes() -> Router {
    Router::new().route("/", get(|| async { asset("index.html") }))
}

/// What no route takes: a file of the UI when one is asked for by GET (or HEAD), else the
/// API's refusal of a route it does not have.
pub(crate) async fn fallback(method: Method, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if (method == Method::GET || method == Method::HEAD) && !path.starts_with("api/") {
        return asset(path);
    }
    ApiError::from(ServiceError::not_found(
        ErrorCode::NoSuchRoute,
        "no such API route: see the JSON API in the book's web server page (docs/src/web.md)",
    ))
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_ui_has_a_content_type() {
        let mut files = vec![];
        let mut dirs = vec![&ASSETS];
        while let Some(dir) = dirs.pop() {
            files.extend(dir.files().map(|f| f.path().to_string_lossy().to_string()));
            dirs.extend(dir.dirs());
        }
        assert!(files.iter().any(|f| f == "index.html"), "{files:?}");
        for file in files {
            assert!(
                content_type(&file).is_some(),
                "{file} would be served as nothing"
            );
        }
    }
}
