//! Progress on stderr for long work, drawn only when stderr is a terminal:
//! pipes, files and tests see nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar counting `len` things called `unit` for work that writes to the
/// file `output` or, when `None`, to stdout. Hidden when stderr is not a
/// terminal, and when the work writes to stdout on a terminal: the bar and
/// the output would overwrite each other there.
pub fn bar(len: u64, unit: &str, output: Option<&Path>) -> ProgressBar {
    if !std::io::stderr().is_terminal() || (output.is_none() && std::io::stdout().is_terminal()) {
        return ProgressBar::hidden();
    }
    let template =
        format!("{{elapsed_precise}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {unit} ({{eta}})");
    // The template is ours and valid; the default bar is a fallback, never a
    // panic.
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()).with_style(style)
}

/// A spinner with a message, for work that reports no progress of its own
/// (a hidden one when stderr is not a terminal).
pub fn spinner(message: impl Into<String>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{spinner} {msg} {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        .with_style(style)
        .with_message(message.into());
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}
