//! The line loop of `decode --jsonl` and `encode --jsonl`: stdin is read a
//! line at a time and every answer is written before the next line is read,
//! so memory stays flat for any number of lines.

use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;

use crate::fail::{Fail, Outcome};

/// Feeds every non-blank line of stdin to `handle`, which appends exactly
/// one output line (with its `\n`) to the buffer it is given and returns
/// `false` when it wrote an error line. Exit code 1 when any line failed.
pub fn run(mut handle: impl FnMut(usize, &[u8], &mut Vec<u8>) -> bool) -> Outcome {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = Vec::new();
    let mut answer = Vec::new();
    let (mut number, mut lines, mut failed) = (0, 0usize, 0usize);
    loop {
        line.clear();
        let read = input
            .read_until(b'\n', &mut line)
            .map_err(|e| Fail::Data(format!("cannot read stdin: {e}")))?;
        if read == 0 {
            break;
        }
        number += 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        lines += 1;
        answer.clear();
        if !handle(number, &line, &mut answer) {
            failed += 1;
        }
        output.write_all(&answer)?;
    }
    output.flush()?;
    if failed > 0 {
        eprintln!("{failed} of {lines} lines failed (see their \"error\" keys)");
        return Ok(ExitCode::from(crate::fail::DATA));
    }
    Ok(ExitCode::SUCCESS)
}

/// Appends `{"def": def, "error": message}` and a newline.
pub fn error_line(out: &mut Vec<u8>, def: Option<&str>, message: &str) {
    #[derive(Serialize)]
    struct ErrorLine<'a> {
        def: Option<&'a str>,
        error: &'a str,
    }
    // Serializing two strings into a Vec cannot fail.
    let _ = serde_json::to_writer(
        &mut *out,
        &ErrorLine {
            def,
            error: message,
        },
    );
    out.push(b'\n');
}
