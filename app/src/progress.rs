//! A progress bar on stderr for searches that run longer than a second.

use std::sync::{Arc, OnceLock};

use frontier_core::{Progress, ProgressSink};
use indicatif::ProgressStyle;
use tracing::Span;
use tracing_indicatif::span_ext::IndicatifSpanExt;

/// A sink that creates a bar (a tracing span shown by tracing-indicatif)
/// the first time it is called after one second, then updates its message.
pub fn search_bar(label: String) -> ProgressSink {
    let span: OnceLock<Span> = OnceLock::new();
    Arc::new(move |p: &Progress| {
        if p.seconds < 1.0 {
            return;
        }
        let span = span.get_or_init(|| {
            let span = tracing::info_span!("search", indicatif.pb_show = true, instance = %label);
            span.pb_set_style(&bar_style());
            span.pb_start();
            span
        });
        span.pb_set_message(&format!(
            "{:.1}M expanded, {:.2}M/s, open {}, f {}",
            p.expanded as f64 / 1e6,
            p.expanded as f64 / p.seconds / 1e6,
            p.open,
            p.f
        ));
    })
}

fn bar_style() -> ProgressStyle {
    // The template is a literal that parses; fall back to the default anyway.
    ProgressStyle::with_template("{spinner} {span_name}{{{span_fields}}} {elapsed} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

/// A bar with a known total, for long preparation steps (building pattern
/// databases). Returns an updater taking (done, message); the bar closes
/// when the updater is dropped.
pub fn task_bar(label: String, total: u64) -> impl Fn(u64, String) + Send + Sync {
    let span = tracing::info_span!("build", indicatif.pb_show = true, task = %label);
    // The template is a literal that parses; fall back to the default anyway.
    let style =
        ProgressStyle::with_template("{span_fields} [{bar:30}] {percent:>3}% {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    span.pb_set_style(&style);
    span.pb_start();
    span.pb_set_length(total);
    move |done: u64, message: String| {
        span.pb_set_position(done);
        span.pb_set_message(&message);
    }
}
