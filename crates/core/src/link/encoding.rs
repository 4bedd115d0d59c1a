//! Percent coding (one encoder, one decoder), shortest round-trip numbers, and user text made
//! visible for messages (escaped, cut to 40 characters).

/// Percent-encodes everything but ASCII letters, digits and `-._~` (so `&`, `=`, `%`, `#`,
/// spaces and non-ASCII text survive a URL and parse back unchanged).
pub fn encode_value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{:02X}", b));
        }
    }
    out
}

/// Decodes `%XX` escapes (and nothing else) as UTF-8.
pub fn percent_decode(s: &str) -> Result<String, String> {
    if !s.contains('%') {
        return Ok(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                }
                None => return Err("a % escape must be followed by two hex digits".into()),
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent escapes do not form UTF-8 text".into())
}

/// Shortest text that parses back to exactly `x` (plain decimal when short, else exponent form).
pub fn format_f64(x: f64) -> String {
    let plain = format!("{}", x);
    let exp = format!("{:e}", x);
    if plain.len() <= exp.len() {
        plain
    } else {
        exp
    }
}

/// Longest excerpt [`quote`] and [`escape`] show, in characters.
const QUOTE_CHARS: usize = 40;

/// User text made visible for a message: its first 40 characters (`…` after them when cut), with
/// every control character escaped as `\u{hex}` (`\u{0}`, `\u{a}`, `\u{1b}`) and, as Rust's
/// debug form does, invisible characters too (`\u{200b}`, `\u{ad}`, `\u{202e}`) and `"` and `\`
/// escaped with a backslash: what was typed is visible, and nothing in it acts on a terminal.
/// [`quote`] puts it in quotes (values); a key a message names is shown this way unquoted.
pub fn escape(s: &str) -> String {
    let mut out = String::new();
    let mut plain = String::new();
    let flush = |plain: &mut String, out: &mut String| {
        if !plain.is_empty() {
            let debug = format!("{:?}", plain);
            out.push_str(&debug[1..debug.len() - 1]);
            plain.clear();
        }
    };
    for c in s.chars().take(QUOTE_CHARS) {
        if c.is_control() {
            flush(&mut plain, &mut out);
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            plain.push(c);
        }
    }
    flush(&mut plain, &mut out);
    if s.chars().nth(QUOTE_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// User text quoted for a message: `"…"` around [`escape`]'s form of it (its first 40
/// characters, `…` inside the quotes when cut; control and invisible characters, `"` and `\`
/// escaped).
pub fn quote(s: &str) -> String {
    format!("\"{}\"", escape(s))
}
