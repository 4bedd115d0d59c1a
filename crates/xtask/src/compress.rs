//! Pre-compressed copies of the files a page downloads: `X.gz` beside `X` (gzip, best level), for
//! the wasm module and the JS glue in `www/pkg/` after each build, and for every text and wasm
//! file of a `dist` folder. `cargo xtask serve` sends a `.gz` copy with `Content-Encoding: gzip`
//! when the browser accepts it (`ServeDir::precompressed_gzip`); a static host that does the
//! same (nginx's `gzip_static`, for one) serves `dist`'s copies. The wasm module is about 2.6x
//! smaller gzipped.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use flate2::write::GzEncoder;
use flate2::Compression;

/// File extensions worth compressing: the module, scripts, styles, pages, data and text.
const COMPRESSIBLE: [&str; 9] = ["wasm", "js", "mjs", "css", "html", "json", "txt", "svg", "md"];

/// Whether `path` is a file [`gzip_tree`] compresses (by extension; `.gz` files never).
pub fn compressible(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| COMPRESSIBLE.contains(&e))
}

/// Write `path.gz` (gzip, best level) beside `path`; returns the compressed size in bytes.
pub fn gzip_beside(path: &Path) -> Result<u64> {
    let data = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut encoder = GzEncoder::new(Vec::with_capacity(data.len() / 2), Compression::best());
    encoder.write_all(&data)?;
    let gz = encoder.finish()?;
    let out = gz_path(path);
    std::fs::write(&out, &gz).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(gz.len() as u64)
}

/// `path` with `.gz` appended to its file name.
pub fn gz_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".gz");
    PathBuf::from(name)
}

/// Gzip every [`compressible`] file under `dir` (recursively), replacing older copies; returns
/// the number of files written.
pub fn gzip_tree(dir: &Path) -> Result<usize> {
    let mut count = 0;
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            count += gzip_tree(&path)?;
        } else if compressible(&path) {
            gzip_beside(&path)?;
            count += 1;
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn writes_a_gzip_copy_that_inflates_to_the_file() {
        let dir = std::env::temp_dir().join(format!("xtask-compress-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        let text = "export const x = 1;\n".repeat(500);
        std::fs::write(dir.join("pkg/m.js"), &text).unwrap();
        std::fs::write(dir.join("pkg/m_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(dir.join("model.safetensors"), b"not compressed").unwrap();

        assert_eq!(gzip_tree(&dir).unwrap(), 2);
        let gz = std::fs::read(dir.join("pkg/m.js.gz")).unwrap();
        assert!(gz.len() < text.len() / 10, "{} bytes for {}", gz.len(), text.len());
        let mut back = String::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut back).unwrap();
        assert_eq!(back, text);
        assert!(dir.join("pkg/m_bg.wasm.gz").is_file());
        assert!(!dir.join("model.safetensors.gz").exists(), "weights are not text");
        assert_eq!(gzip_tree(&dir).unwrap(), 2, "a second run replaces, never compresses a .gz");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
