//! Where moo's output goes: one path to stdout, and files written whole or not at all.
//!
//! Every line a command prints goes through [`outln!`] or [`out!`], which return the write
//! error instead of panicking as `println!` does: `main` then turns a closed pipe
//! (`moo ... | head`) into a quiet success and any other failure (a full disk) into
//! `error: ...` and exit status 1.
//!
//! Files are written to a temporary beside the target and renamed over it, so a reader never
//! sees half a file and a full disk leaves the old one alone. A rename replaces whatever the
//! name points to, so it is used only for a regular file or a name that does not exist yet:
//! anything else (`/dev/null`, `/dev/stdout`, a FIFO) is written straight to, and a symbolic
//! link keeps being a link to the file it names.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Writes formatted text to stdout, returning the error (with context) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!($($arg)*))
    };
}

/// [`out!`] with a newline.
macro_rules! outln {
    () => {
        $crate::cli::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// The context of every stdout error; `main` looks through it for a broken pipe.
const STDOUT: &str = "cannot write to standard output";

/// Writes to stdout; the one place that does.
pub fn write_stdout(args: fmt::Arguments<'_>) -> Result<()> {
    io::stdout().lock().write_fmt(args).context(STDOUT)
}

/// Flushes stdout, so an error in the last buffered bytes is reported too.
pub fn flush_stdout() -> Result<()> {
    io::stdout().lock().flush().context(STDOUT)
}

/// Writes `bytes` to `path`: atomically for a regular file or a new name, straight to anything
/// else (a device or a pipe), never replacing a device with a file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let failed = || format!("cannot write {}", path.display());
    let target = match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            anyhow::bail!("cannot write {}: it is a directory", path.display())
        }
        Ok(meta) if !meta.is_file() => {
            // A device, FIFO or socket: opened as it is, neither created nor truncated.
            let mut file = OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(failed)?;
            file.write_all(bytes).with_context(failed)?;
            return file.flush().with_context(failed);
        }
        // Through any symbolic links, so the file they name is replaced and they stay links.
        Ok(_) => fs::canonicalize(path).with_context(failed)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(e).with_context(failed),
    };
    write_atomically(&target, bytes).with_context(failed)
}

/// Writes a file of a split run's directory (the manifest, a job, a result), whole or not at all.
///
/// Unlike [`write_file`], which writes through a symbolic link the user named, this refuses any
/// entry at `path` that is not a regular file: a run directory is often unpacked from someone
/// else's archive, which can carry links that lead outside it and pipes that block a reader or
/// writer for ever. The file is written to a temporary beside it and renamed onto the name, so
/// even a link planted between the check and the rename is replaced, never followed.
pub fn write_run_file(path: &Path, bytes: &[u8]) -> Result<()> {
    check_run_entry(path)?;
    write_atomically(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Whether a run directory's `path` holds a regular file (`false`: nothing there yet); an error
/// naming what it holds instead, for anything else (see [`write_run_file`]). Looked at without
/// following a link or opening the entry, so a FIFO cannot block the caller.
pub fn check_run_entry(path: &Path) -> Result<bool> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(true);
    }
    let what = if kind.is_symlink() {
        "a symbolic link, which could lead outside the run"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "a FIFO, socket or device, which would block or reach outside the run"
    };
    anyhow::bail!(
        "{} is {what}: moo reads and writes only regular files in a run directory; remove it (and check where the run's files came from)",
        path.display()
    )
}

/// A temporary file beside `target`, filled and renamed onto it; removed on any failure.
fn write_atomically(target: &Path, bytes: &[u8]) -> Result<()> {
    let dir: PathBuf = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .with_context(|| format!("{} is not a file name", target.display()))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Created as a plain create would make the file: mode 0666 less the umask, which the
    // kernel applies.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(&dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    // A file that exists keeps its own permissions.
    if let Ok(meta) = fs::metadata(target) {
        fs::set_permissions(tmp.path(), meta.permissions())?;
    }
    tmp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// A Markdown table with `header`: the form of every table moo prints for people.
pub fn markdown_table(header: impl Into<comfy_table::Row>) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table
        .load_preset(comfy_table::presets::ASCII_MARKDOWN)
        .set_header(header);
    table
}

/// Aligns `columns` of `table` right, so that the numbers in them line up.
pub fn align_right(table: &mut comfy_table::Table, columns: impl IntoIterator<Item = usize>) {
    for column in columns {
        if let Some(c) = table.column_mut(column) {
            c.set_cell_alignment(comfy_table::CellAlignment::Right);
        }
    }
}
