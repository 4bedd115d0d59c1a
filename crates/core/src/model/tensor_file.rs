//! The `model.safetensors` format, read here rather than by the `safetensors` crate's parser so
//! that every size is computed in `u64` (the crate multiplies elements by bits in `usize`, which
//! is 32 bits on wasm32: a tensor of 2^27 `F32` elements or more, 512 MiB, overflowed in the page
//! but not in the CLI) and so that a header naming one tensor twice is seen (a JSON map keeps the
//! last duplicate without a word).
//!
//! The file: 8 bytes, the header's length `N` (little-endian `u64`); `N` bytes of JSON, an object
//! mapping each tensor's name to `{ "dtype", "shape", "data_offsets": [begin, end] }` (and an
//! optional `"__metadata__"`); then the data, `end` bytes after the header, the tensors back to
//! back in offset order. [`Header::parse`] reads and checks the header alone (the page checks it
//! before it streams the data); [`TensorFile::parse`] checks a whole file and hands out its
//! tensors' bytes without copying them.
//!
//! The checks, in this order, each refusal naming the tensor when one is at fault (so a file is
//! refused with the same message on every run and machine): the length `N`; the JSON; a name
//! given twice; each tensor's dtype, shape and offsets in header order (its shape's size in bytes
//! must be its offsets' span); two names the lab would read as one (`X` and `bert.X`, or a
//! LayerNorm's `weight` and `gamma`, `bias` and `beta`); the tensors back to back from offset 0;
//! the file's length, `8 + N + end`.

use super::ModelError;
use safetensors::Dtype;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Largest header accepted, in bytes (the `safetensors` crate's limit).
pub const MAX_HEADER: u64 = 100_000_000;

/// One tensor as the header describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorInfo {
    /// The name, as written in the file.
    pub name: String,
    /// The element type.
    pub dtype: Dtype,
    /// The shape.
    pub shape: Vec<u64>,
    /// Its data's first byte, counted from the end of the header.
    pub begin: u64,
    /// One past its data's last byte.
    pub end: u64,
}

impl TensorInfo {
    /// The size of its data in bytes.
    pub fn bytes(&self) -> u64 {
        self.end - self.begin
    }
}

/// A checked header: the tensors in the header's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The header's length `N` in bytes (the data starts at `8 + N`).
    pub len: u64,
    /// The tensors, in the header's order.
    pub tensors: Vec<TensorInfo>,
}

fn bad(tensor: &str, why: impl Into<String>) -> ModelError {
    ModelError::Weights { tensor: tensor.to_string(), why: why.into() }
}

/// How many bytes from the start of the file [`Header::parse`] needs: 8 when `prefix` has fewer,
/// else `8 + N`. Refused when `N` is over [`MAX_HEADER`].
pub fn header_bytes(prefix: &[u8]) -> Result<u64, ModelError> {
    let Some(n) = prefix.get(..8) else { return Ok(8) };
    let n = u64::from_le_bytes([n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]]);
    if n > MAX_HEADER {
        return Err(bad(
            "",
            format!(
                "its first 8 bytes give a header of {} bytes, more than a safetensors header may have ({}): not a \
                 safetensors file",
                n, MAX_HEADER
            ),
        ));
    }
    Ok(8 + n)
}

/// The header's entries in their order, every duplicate kept.
struct Entries(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entries, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The name the lab reads a tensor by: without the `bert.` prefix, a LayerNorm's `gamma` and
/// `beta` as `weight` and `bias`.
fn read_as(name: &str) -> String {
    let bare = name.strip_prefix("bert.").unwrap_or(name);
    if bare.contains("LayerNorm") {
        if let Some(s) = bare.strip_suffix(".gamma") {
            return format!("{}.weight", s);
        }
        if let Some(s) = bare.strip_suffix(".beta") {
            return format!("{}.bias", s);
        }
    }
    bare.to_string()
}

/// Reads one tensor's entry.
fn tensor(name: &str, info: &Value) -> Result<TensorInfo, ModelError> {
    let field = |key: &str| info.get(key).ok_or_else(|| bad(name, format!("its header entry has no `{}`", key)));
    let dtype_value = field("dtype")?;
    let dtype: Dtype = serde_json::from_value(dtype_value.clone())
        .map_err(|_| bad(name, format!("has dtype {}, which safetensors does not define", dtype_value)))?;
    let numbers = |key: &str| -> Result<Vec<u64>, ModelError> {
        let v = field(key)?;
        v.as_array()
            .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
            .ok_or_else(|| bad(name, format!("its `{}` is {}; it must be a list of whole numbers", key, v)))
    };
    let shape = numbers("shape")?;
    let offsets = numbers("data_offsets")?;
    let &[begin, end] = offsets.as_slice() else {
        return Err(bad(name, format!("its `data_offsets` are {:?}; they must be two numbers", offsets)));
    };
    let bits =
        shape.iter().try_fold(1u64, |a, &s| a.checked_mul(s)).and_then(|e| e.checked_mul(dtype.bitsize() as u64));
    let Some(bits) = bits else {
        return Err(bad(name, format!("its shape {:?} needs more than 2^64 bits of data", shape)));
    };
    if bits % 8 != 0 {
        return Err(bad(name, format!("its shape {:?} of {:?} fills no whole number of bytes", shape, dtype)));
    }
    if end < begin || end - begin != bits / 8 {
        return Err(bad(
            name,
            format!(
                "its shape {:?} needs {} bytes of data, its offsets give {}",
                shape,
                bits / 8,
                end.saturating_sub(begin)
            ),
        ));
    }
    Ok(TensorInfo { name: name.to_string(), dtype, shape, begin, end })
}

impl Header {
    /// Reads and checks the header at the start of `prefix` (the file, or at least its first
    /// [`header_bytes`]): everything but the file's length (module documentation).
    pub fn parse(prefix: &[u8]) -> Result<Header, ModelError> {
        if prefix.len() < 8 {
            return Err(bad("", format!("the file has {} bytes: too short for a safetensors header", prefix.len())));
        }
        let start = header_bytes(prefix)?;
        let Some(json) = prefix.get(8..start as usize) else {
            return Err(bad("", "the header is longer than the file: the file is truncated or not a safetensors file"));
        };
        let entries: Entries =
            serde_json::from_slice(json).map_err(|e| bad("", format!("the header does not parse: {}", e)))?;
        let mut seen = BTreeSet::new();
        if let Some((name, _)) = entries.0.iter().find(|(k, _)| !seen.insert(k.as_str())) {
            return Err(bad(
                name,
                "is named twice in the header: which of the two the lab should read is ambiguous; the file is refused",
            ));
        }
        let tensors = entries
            .0
            .iter()
            .filter(|(k, _)| k != "__metadata__")
            .map(|(k, v)| tensor(k, v))
            .collect::<Result<Vec<_>, _>>()?;
        let mut read: BTreeMap<String, usize> = BTreeMap::new();
        for (k, t) in tensors.iter().enumerate() {
            let r = read_as(&t.name);
            if let Some(&j) = read.get(&r) {
                return Err(bad(
                    &r,
                    format!(
                        "the file holds both `{}` and `{}`, which the lab reads as one tensor: which one is meant is \
                         ambiguous; the file is refused",
                        tensors[j].name, t.name
                    ),
                ));
            }
            read.insert(r, k);
        }
        let mut order: Vec<&TensorInfo> = tensors.iter().collect();
        order.sort_by(|a, b| (a.begin, a.end, &a.name).cmp(&(b.begin, b.end, &b.name)));
        let mut at = 0u64;
        for t in order {
            if t.begin != at {
                let what = if t.begin < at { "overlaps the data before it" } else { "leaves a gap before it" };
                return Err(bad(
                    &t.name,
                    format!(
                        "its data starts at byte {} of the data, where the tensors before it end at byte {}: it {}",
                        t.begin, at, what
                    ),
                ));
            }
            at = t.end;
        }
        Ok(Header { len: start - 8, tensors })
    }

    /// The bytes of data the header describes (the last tensor's end).
    pub fn data_bytes(&self) -> u64 {
        self.tensors.iter().map(|t| t.end).max().unwrap_or(0)
    }

    /// The file's length the header implies, `8 + N + data`.
    pub fn file_bytes(&self) -> u64 {
        8 + self.len + self.data_bytes()
    }

    /// The largest tensor (the first of equal ones in the header's order), if any.
    pub fn largest(&self) -> Option<&TensorInfo> {
        self.tensors.iter().fold(None, |m: Option<&TensorInfo>, t| match m {
            Some(m) if m.bytes() >= t.bytes() => Some(m),
            _ => Some(t),
        })
    }

    /// Refuses a file of `len` bytes other than the header's [`Header::file_bytes`]: truncated,
    /// or followed by extra bytes.
    pub fn check_length(&self, len: u64) -> Result<(), ModelError> {
        let want = self.file_bytes();
        if want == len {
            return Ok(());
        }
        let what = if want > len { "truncated" } else { "followed by extra bytes" };
        Err(bad("", format!("the file is {}: its header describes {} bytes, the file has {}", what, want, len)))
    }
}

/// One tensor of a [`TensorFile`]: its dtype, shape and bytes.
#[derive(Clone, Debug)]
pub struct TensorView<'a> {
    dtype: Dtype,
    shape: Vec<usize>,
    data: &'a [u8],
}

impl TensorView<'_> {
    /// The element type.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The data, little-endian, as in the file.
    pub fn data(&self) -> &[u8] {
        self.data
    }
}

/// A checked `model.safetensors`: its header and its data, borrowed.
#[derive(Clone, Debug)]
pub struct TensorFile<'a> {
    /// The header.
    pub header: Header,
    /// Each tensor's index in the header's list, by name.
    index: BTreeMap<String, usize>,
    data: &'a [u8],
}

impl<'a> TensorFile<'a> {
    /// Reads and checks the whole file (module documentation). Never panics.
    pub fn parse(bytes: &'a [u8]) -> Result<TensorFile<'a>, ModelError> {
        let header = Header::parse(bytes)?;
        header.check_length(bytes.len() as u64)?;
        let data = &bytes[(8 + header.len) as usize..];
        let index = header.tensors.iter().enumerate().map(|(k, t)| (t.name.clone(), k)).collect();
        Ok(TensorFile { header, index, data })
    }

    /// The tensor named `name` exactly, if the file has it.
    pub fn tensor(&self, name: &str) -> Option<TensorView<'a>> {
        let t = &self.header.tensors[*self.index.get(name)?];
        // The file's length was checked: every offset is within `data`, hence fits a usize, and so
        // does every dimension of a non-empty tensor.
        let shape = t.shape.iter().map(|&s| usize::try_from(s).unwrap_or(usize::MAX)).collect();
        Some(TensorView { dtype: t.dtype, shape, data: &self.data[t.begin as usize..t.end as usize] })
    }
}
