//! Text that comes from people and files: which characters may be symbols, how input is echoed
//! back in messages, and reading a file without letting it fill memory.
//!
//! A symbol must look like one thing on screen and compare equal only to itself. Control and
//! format characters (U+202E right-to-left override, U+200B zero-width space, U+FEFF) are
//! invisible or reorder what is shown around them, and a combining mark (U+0301) fuses with the
//! character before it, so `abé` would show a code of three symbols as two. Such characters are
//! refused by their Unicode general category, the same check for the small games and the
//! long-code crackers of `moo-crack`.
//!
//! Messages quote what was typed, but a 10 MB guess must not come back whole on stderr, so every
//! echo goes through [`excerpt`].

use std::fmt;
use std::io::Read;
use std::path::Path;

use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Whether `c` can stand alone as a symbol: an assigned letter, digit, punctuation mark or sign.
///
/// Refused: spaces and other separators, control, format, surrogate, private-use and unassigned
/// code points, and combining marks.
///
/// ```
/// use moo_core::text::is_visible_symbol;
/// assert!(is_visible_symbol('a') && is_visible_symbol('7') && is_visible_symbol('ж'));
/// for c in [' ', '\n', '\u{202E}', '\u{200F}', '\u{200B}', '\u{FEFF}', '\u{0301}'] {
///     assert!(!is_visible_symbol(c), "{c:?}");
/// }
/// ```
pub fn is_visible_symbol(c: char) -> bool {
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    )
}

/// Whether `c` is an assigned letter that carries no combining mark of its own (general category
/// L*): the characters a generated alphabet may use.
pub fn is_letter(c: char) -> bool {
    c.general_category_group() == GeneralCategoryGroup::Letter
}

/// A character named for a message: `'a'`, or `U+202E` when it would not show.
pub struct CharName(pub char);

impl fmt::Display for CharName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if is_visible_symbol(self.0) {
            write!(f, "{:?}", self.0)
        } else {
            write!(f, "U+{:04X}", u32::from(self.0))
        }
    }
}

/// The most characters of user input quoted whole in a message.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as quoted in a message: whole when short, else its first characters and its length, so
/// hostile input cannot flood a terminal or a log.
///
/// ```
/// use moo_core::text::excerpt;
/// assert_eq!(excerpt("0123"), "0123");
/// let long = "7".repeat(10_000_000);
/// assert_eq!(excerpt(&long), format!("{}... (10000000 bytes)", "7".repeat(32)));
/// ```
pub fn excerpt(text: &str) -> String {
    shorten(text, EXCERPT_CHARS)
}

/// `text` cut to about `max_chars` characters, with its length in bytes when cut: for messages
/// from other libraries that quote input (a JSON parser quoting a 10 MB string).
pub fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().nth(max_chars).is_none() {
        return text.to_string();
    }
    let head: String = text.chars().take(max_chars.saturating_sub(8)).collect();
    format!("{head}... ({} bytes)", text.len())
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Opening or reading failed.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The path names a device, pipe, socket or directory, which could be endless.
    #[error("cannot read {path}: it is not a regular file (devices, pipes and directories are not read)")]
    NotRegular {
        /// The file.
        path: String,
    },
    /// The file is larger than the cap.
    #[error("cannot read {path}: it is larger than the limit of {cap} bytes ({} MiB)", cap >> 20)]
    TooLarge {
        /// The file.
        path: String,
        /// The cap, in bytes.
        cap: u64,
    },
    /// The file is not UTF-8 text.
    #[error("cannot read {path}: it is not UTF-8 text")]
    NotUtf8 {
        /// The file.
        path: String,
    },
}

/// FNV-1a, 64 bits: a checksum of a checkpoint's line and a fingerprint of a split, enough to
/// tell files apart or notice damage, not a defence against forgery.
pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Opens a regular file for reading, refusing devices, pipes, sockets and directories.
///
/// The type is checked before opening (a FIFO would block the open) and again on the open file,
/// which may have been swapped in between.
pub fn open_regular(path: &Path) -> Result<std::fs::File, ReadError> {
    let name = || path.display().to_string();
    let io = |error| ReadError::Io {
        path: name(),
        error,
    };
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(ReadError::NotRegular { path: name() });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(ReadError::NotRegular { path: name() });
    }
    Ok(file)
}

/// Reads a regular file of at most `cap` bytes as UTF-8 text.
///
/// The type is checked before opening (a FIFO would block the open) and again on the open file,
/// and the read stops one byte past the cap, so neither a link to `/dev/zero` nor a file that
/// grows while it is read can take more than `cap` bytes.
pub fn read_capped(path: &Path, cap: u64) -> Result<String, ReadError> {
    let bytes = read_capped_bytes(path, cap)?;
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8 {
        path: path.display().to_string(),
    })
}

/// [`read_capped`] as bytes, for files that may be compressed.
pub fn read_capped_bytes(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let name = || path.display().to_string();
    let io = |error| ReadError::Io {
        path: name(),
        error,
    };
    let file = open_regular(path)?;
    let meta = file.metadata().map_err(io)?;
    if meta.len() > cap {
        return Err(ReadError::TooLarge { path: name(), cap });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge { path: name(), cap });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_alphabets_skip_marks() {
        assert!(is_letter('ā'));
        assert!(!is_letter('\u{0301}') && !is_letter('\u{0378}') && !is_letter('1'));
    }

    #[test]
    fn invisible_characters_are_named_by_code_point() {
        assert_eq!(CharName('\u{202E}').to_string(), "U+202E");
        assert_eq!(CharName('x').to_string(), "'x'");
    }

    #[test]
    fn excerpts_count_characters_not_bytes() {
        let s = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&s), s);
        assert!(excerpt(&"é".repeat(EXCERPT_CHARS + 1)).ends_with("(82 bytes)"));
    }

    #[test]
    fn reads_are_capped_and_only_from_regular_files() {
        let dir = std::env::temp_dir();
        assert!(matches!(
            read_capped(&dir, 10),
            Err(ReadError::NotRegular { .. })
        ));
        let path = dir.join(format!("moo-text-test-{}", std::process::id()));
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_capped(&path, 10).unwrap(), "0123456789");
        let err = read_capped(&path, 9).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(err.to_string().contains("limit of 9 bytes"), "{err}");
    }
}
