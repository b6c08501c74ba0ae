//! Reading answers line by line, from a terminal or a pipe.
//!
//! Interactive commands must also work with piped stdin (one answer per line), so tests and
//! scripts can drive them. Prompts are shown only when stdin is a terminal, lines are capped so a
//! runaway producer cannot exhaust memory, and bytes that are not UTF-8 are read lossily and then
//! rejected by the parser with a normal message rather than aborting the game.

use std::io::{self, BufRead, IsTerminal, Write};

/// The longest line read; the rest of a longer line is discarded.
const MAX_LINE: usize = 4096;

/// One line of input, or why there is none.
pub enum Line {
    /// A line, trimmed.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes, discarded.
    TooLong,
    /// The input ended.
    End,
}

/// Reads lines from stdin, prompting on stdout when a person is typing.
pub struct Input {
    reader: Box<dyn BufRead>,
    interactive: bool,
}

impl Input {
    /// Reads from this process's stdin.
    pub fn stdin() -> Input {
        let stdin = io::stdin();
        let interactive = stdin.is_terminal();
        Input {
            reader: Box::new(stdin.lock()),
            interactive,
        }
    }

    /// Shows `prompt` (to a person only) and reads the next non-empty line.
    pub fn ask(&mut self, prompt: &str) -> io::Result<Line> {
        loop {
            if self.interactive {
                let mut out = io::stdout().lock();
                write!(out, "{prompt}")?;
                out.flush()?;
            }
            match self.read_line()? {
                Line::Text(t) if t.is_empty() => continue,
                other => return Ok(other),
            }
        }
    }

    fn read_line(&mut self) -> io::Result<Line> {
        let mut buf = Vec::new();
        let mut too_long = false;
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if buf.len() + take <= MAX_LINE + 1 {
                buf.extend_from_slice(&chunk[..take]);
            } else {
                too_long = true;
            }
            self.reader.consume(take);
            if done {
                break;
            }
        }
        if too_long {
            return Ok(Line::TooLong);
        }
        if buf.is_empty() {
            return Ok(Line::End);
        }
        Ok(Line::Text(String::from_utf8_lossy(&buf).trim().to_string()))
    }
}

/// The message for a discarded long line.
pub const TOO_LONG: &str = "that line is too long (over 4096 bytes); type one answer per line";
