//! A run's status as the page reads it (particle and training runs).

use attn_core::Status;

/// `"running"`, `"finished"` or `"diverged"`.
pub fn name(s: &Status) -> String {
    match s {
        Status::Running => "running",
        Status::Finished => "finished",
        Status::Diverged(_) => "diverged",
    }
    .into()
}

/// After a divergence, what overflowed and what to change; otherwise empty.
pub fn message(s: &Status) -> String {
    match s {
        Status::Diverged(m) => m.clone(),
        _ => String::new(),
    }
}
