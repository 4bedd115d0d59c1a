//! The random-strings-and-mutations check every lab's configuration parser passes.

use attn_core::rng::Rng;
use attn_core::ConfigError;
use std::fmt::Debug;

/// Feeds `parse` 20 000 strings from a PRNG seeded with `rng_seed`: every other one random text
/// from an alphabet of awkward characters (every fourth one after `prefix`), the rest one of
/// `seeds` with up to four characters removed, replaced or inserted. Each must either parse and
/// survive the round trip through `canonical`, or fail with a key and a message; none may panic.
pub fn random_strings_and_mutations<T: PartialEq + Debug>(
    rng_seed: u32,
    seeds: &[String],
    prefix: &str,
    parse: impl Fn(&str) -> Result<T, ConfigError>,
    canonical: impl Fn(&T) -> String,
) {
    let mut rng = Rng::new(rng_seed, 0);
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789=&;,.-+eE%#?_ \u{0}\u{7f}é∞".chars().collect();
    for i in 0..20_000 {
        let s: String = if i % 2 == 0 {
            let len = (rng.next_u64() % 60) as usize;
            let body: String = (0..len).map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize]).collect();
            if i % 4 == 0 {
                format!("{}{}", prefix, body)
            } else {
                body
            }
        } else {
            let mut chars: Vec<char> = seeds[(rng.next_u64() % seeds.len() as u64) as usize].chars().collect();
            for _ in 0..1 + rng.next_u64() % 4 {
                let pos = (rng.next_u64() % (chars.len() as u64 + 1)) as usize;
                let c = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
                match rng.next_u64() % 3 {
                    0 if pos < chars.len() => {
                        chars.remove(pos);
                    }
                    1 if pos < chars.len() => chars[pos] = c,
                    _ => chars.insert(pos, c),
                }
            }
            chars.into_iter().collect()
        };
        match parse(&s) {
            Ok(c) => assert_eq!(parse(&canonical(&c)).as_ref(), Ok(&c), "round trip of {:?}", s),
            Err(e) => assert!(!e.key.is_empty() && !e.message.is_empty(), "{:?}", s),
        }
    }
}
