//! The `key value` lines that certificates and results files open with,
//! read one at a time, each error naming its line.

use crate::orderly::MAX_ORDERLY_CELLS;
use crate::BoggleError;

/// Reads header lines off numbered `lines`; `bad` makes an error for a line.
pub(crate) struct HeaderLines<'a, I, B> {
    pub(crate) lines: &'a mut I,
    /// The line an early end is reported at.
    pub(crate) last: usize,
    pub(crate) bad: B,
}

impl<'t, I, B> HeaderLines<'_, I, B>
where
    I: Iterator<Item = (usize, &'t str)>,
    B: Fn(usize, &str) -> BoggleError,
{
    /// The next line: its number and, after `key` and a space, its value
    /// (the whole line for an empty `key`).
    pub(crate) fn field(&mut self, key: &str) -> Result<(usize, String), BoggleError> {
        let (n, line) = self.lines.next().ok_or_else(|| match self.last {
            // An empty file has no line 0 to name.
            0 => (self.bad)(1, "the file is empty"),
            last => (self.bad)(last, "the header ends early"),
        })?;
        if key.is_empty() {
            return Ok((n, line.to_string()));
        }
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(|rest| (n, rest.to_string()))
            .ok_or_else(|| (self.bad)(n, &format!("expected '{key} …'")))
    }

    /// The `dictionary <words> <hex fingerprint>` line.
    pub(crate) fn dictionary(&mut self) -> Result<(u32, u64), BoggleError> {
        let (n, text) = self.field("dictionary")?;
        text.split_once(' ')
            .and_then(|(w, f)| Some((w.parse().ok()?, u64::from_str_radix(f, 16).ok()?)))
            .ok_or_else(|| (self.bad)(n, "expected 'dictionary <words> <hex fingerprint>'"))
    }

    /// The `shape RxC` line, as rows and columns (a shape proofs take: 1
    /// to [`MAX_ORDERLY_CELLS`] cells).
    pub(crate) fn shape(&mut self) -> Result<(usize, usize), BoggleError> {
        let (n, text) = self.field("shape")?;
        text.split_once('x')
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
            .filter(|&(r, c)| {
                r.checked_mul(c)
                    .is_some_and(|n| (1..=MAX_ORDERLY_CELLS).contains(&n))
            })
            .ok_or_else(|| (self.bad)(n, "shape is not RxC of 1 to 16 cells"))
    }
}
