//! The names of off-CPU slices in a recording, and the blocking call read
//! back from them.
//!
//! The Perfetto UI colours a slice by its name (a hash of the name, digits
//! left out, picks the hue), so a slice named by its call (`[B] read`,
//! `[B] poll`) took a colour of its own per call. From format 3 an
//! interval is named by its class alone, one name and so one colour a
//! class, and its call is the `syscall` argument. The four names say the
//! class in words as genba profile does, and are chosen among such wordings
//! for hues far apart: 292, 8, 200 and 84 degrees in the UI's default
//! colouring (76 degrees apart at least), four different colours of its
//! material palette in the other.
//!
//! Recordings of formats 1 and 2 named an interval `[B] read` (the class
//! tag, then the call) and `[S] runnable`: their readers take the call from
//! the name.

use genba_export::perfetto::Value;

/// The first format whose off-CPU slices are named by their class alone.
pub const NAMED_BY_CLASS: u64 = 3;

/// An off-CPU slice's name: its class, in words (`[I] waiting for I/O`).
/// A tag this does not know is its own name.
pub fn slice_name(tag: &str) -> &str {
    match tag {
        "[I]" => "[I] waiting for I/O",
        "[L]" => "[L] contended lock",
        "[S]" => "[S] run queue",
        "[B]" => "[B] other blocking",
        other => other,
    }
}

/// The call an off-CPU slice blocked in: its `syscall` argument, or in a
/// recording of a format before [`NAMED_BY_CLASS`] (None: one without a
/// format), the name after its class tag (`[B] read`; not `[S] runnable`).
pub fn blocking_call(
    format: Option<u64>,
    name: &str,
    class: &str,
    syscall: Option<&Value>,
) -> Option<String> {
    if let Some(Value::Str(s)) = syscall {
        return Some(s.clone());
    }
    if format.is_some_and(|f| f >= NAMED_BY_CLASS) {
        return None;
    }
    name.strip_prefix(class)
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "runnable")
        .map(str::to_string)
}

/// An off-CPU interval as a label says it: the class tag and the call
/// (`[B] read`), or the class's name when it blocked in none.
pub fn label(class: &str, syscall: Option<&str>) -> String {
    match syscall {
        Some(s) => format!("{class} {s}"),
        None => slice_name(class).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_class_one_name() {
        let names: Vec<&str> = ["[I]", "[L]", "[S]", "[B]"]
            .iter()
            .map(|t| slice_name(t))
            .collect();
        for (n, t) in names.iter().zip(["[I]", "[L]", "[S]", "[B]"]) {
            assert!(n.starts_with(t) && n.len() > t.len(), "{n}");
            // no digit: the UI leaves digits out of the name it hashes
            assert!(!n.chars().any(|c| c.is_ascii_digit()), "{n}");
        }
        let mut uniq = names.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), 4);
        assert_eq!(slice_name("[x]"), "[x]");
    }

    #[test]
    fn the_call_from_the_argument_or_an_older_name() {
        let read = Value::Str("read".into());
        // format 3: the argument, never the name
        assert_eq!(
            blocking_call(Some(3), "[B] other blocking", "[B]", Some(&read)).as_deref(),
            Some("read")
        );
        assert_eq!(
            blocking_call(Some(3), "[B] other blocking", "[B]", None),
            None
        );
        assert_eq!(blocking_call(Some(3), "[S] run queue", "[S]", None), None);
        // formats 2, 1 and none: the name
        for f in [Some(2), Some(1), None] {
            assert_eq!(
                blocking_call(f, "[B] read", "[B]", None).as_deref(),
                Some("read")
            );
            assert_eq!(blocking_call(f, "[S] runnable", "[S]", None), None);
            assert_eq!(blocking_call(f, "[I]", "[I]", None), None);
        }
    }

    #[test]
    fn labels_keep_the_call() {
        assert_eq!(label("[B]", Some("read")), "[B] read");
        assert_eq!(label("[S]", None), "[S] run queue");
    }
}
