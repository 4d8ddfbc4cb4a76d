//! The command's errors and their exit codes.
//!
//! Exit codes: 0 success; 1 the data is bad (hex, JSON, a packet that does
//! not decode or a value that does not encode, an opcode missing from the
//! map, invalid defs for `gen`); 2 the command line is bad (clap's usage
//! errors, an unknown def name or version, a file that cannot be read, a map
//! file that does not parse, a packet missing from the map given to encode).

use std::fmt;
use std::io;
use std::process::ExitCode;

/// Exit code of a data error.
pub const DATA: u8 = 1;
/// Exit code of a usage error.
pub const USAGE: u8 = 2;

/// Why a command stopped.
#[derive(Debug)]
pub enum Fail {
    /// The command line cannot be acted on (exit 2).
    Usage(String),
    /// The input data is bad (exit 1).
    Data(String),
    /// Writing the output failed.
    Output(io::Error),
}

impl Fail {
    /// The exit code and the message to print, if any. A closed pipe
    /// (`tera-defs decode ... | head`) is a normal end, not an error.
    pub fn report(&self) -> (ExitCode, Option<String>) {
        match self {
            Fail::Usage(m) => (ExitCode::from(USAGE), Some(m.clone())),
            Fail::Data(m) => (ExitCode::from(DATA), Some(m.clone())),
            Fail::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => (ExitCode::SUCCESS, None),
            Fail::Output(e) => (
                ExitCode::from(DATA),
                Some(format!("cannot write output: {e}")),
            ),
        }
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Usage(m) | Fail::Data(m) => f.write_str(m),
            Fail::Output(e) => write!(f, "cannot write output: {e}"),
        }
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        Fail::Output(e)
    }
}

/// The outcome of a command that ran to the end.
pub type Outcome = Result<ExitCode, Fail>;
