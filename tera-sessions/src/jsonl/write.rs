//! Writing events as JSONL lines.

use std::io::Write;

use serde::Serialize;

use crate::error::WriteError;
use crate::event::Event;
use crate::jsonl::line::{Dir, Reason, StartFields};
use crate::named::{Named, PacketValue};

/// Appends `event`'s line (with its `\n`) to `out`: a packet's `hex` when
/// `hex` is true, its `name`, `version` and `data` or `error` when
/// `named` is given.
pub fn write_line(out: &mut Vec<u8>, event: &Event, named: Option<&Named>, hex: bool) {
    out.extend_from_slice(b"{\"session\":");
    push_display(out, event.session().0);
    out.extend_from_slice(b",\"time\":\"");
    push_display(out, event.time());
    out.push(b'"');
    match event {
        Event::Start(start) => {
            let fields = StartFields {
                client: start.client,
                server: start.server,
                keys: start.keys.map(Into::into),
                region: start.region.clone(),
                client_version: start.client_version,
            };
            out.extend_from_slice(b",\"start\":");
            push_json(out, &fields);
        }
        Event::Packet(packet) => {
            out.extend_from_slice(b",\"dir\":");
            push_json(out, &Dir::from(packet.direction));
            out.extend_from_slice(b",\"opcode\":");
            push_display(out, packet.opcode());
            if let Some(named) = named {
                if let Some(def) = &named.def {
                    out.extend_from_slice(b",\"name\":");
                    push_json(out, def.name());
                    out.extend_from_slice(b",\"version\":");
                    push_display(out, def.version());
                }
                let made;
                let json = match &named.value {
                    Ok(PacketValue::Json(json)) => Ok(json.as_slice()),
                    Ok(value) => {
                        made = value.to_json().map_err(|e| e.to_string());
                        made.as_deref().map_err(String::as_str)
                    }
                    Err(message) => Err(message.as_str()),
                };
                match json {
                    Ok(json) => {
                        out.extend_from_slice(b",\"data\":");
                        out.extend_from_slice(json);
                    }
                    Err(message) => {
                        out.extend_from_slice(b",\"error\":");
                        push_json(out, message);
                    }
                }
            }
            if hex {
                out.extend_from_slice(b",\"hex\":\"");
                let start = out.len();
                out.resize(start + 2 * packet.bytes.len(), 0);
                // The buffer was sized for the hex just above.
                let _ =
                    hex::encode_to_slice(&packet.bytes, out.get_mut(start..).unwrap_or_default());
                out.push(b'"');
            }
        }
        Event::Gap(gap) => {
            out.extend_from_slice(b",\"dir\":");
            push_json(out, &Dir::from(gap.direction));
            out.extend_from_slice(b",\"gap\":");
            push_display(out, gap.len);
            out.extend_from_slice(b",\"offset\":");
            push_display(out, gap.offset);
        }
        Event::End(end) => {
            out.extend_from_slice(b",\"end\":");
            push_json(out, &Reason::from(end.reason));
        }
    }
    out.extend_from_slice(b"}\n");
}

fn push_display(out: &mut Vec<u8>, value: impl std::fmt::Display) {
    // Writing to a vector cannot fail.
    let _ = write!(out, "{value}");
}

fn push_json(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    // Strings, numbers and plain structs serialize into a vector without
    // an error.
    let _ = serde_json::to_writer(&mut *out, value);
}

/// Writes events as JSONL, each packet with its `hex`.
pub struct JsonlWriter<W: Write> {
    out: W,
    line: Vec<u8>,
}

impl<W: Write> JsonlWriter<W> {
    /// A writer to `out` (buffer it: a line is one `write_all`).
    pub fn new(out: W) -> JsonlWriter<W> {
        JsonlWriter {
            out,
            line: Vec::new(),
        }
    }

    /// Writes `event`'s line, with what `named` says of a packet.
    ///
    /// # Errors
    /// The output's error.
    pub fn write_named(&mut self, event: &Event, named: Option<&Named>) -> Result<(), WriteError> {
        self.line.clear();
        write_line(&mut self.line, event, named, true);
        self.out.write_all(&self.line)?;
        Ok(())
    }

    /// Writes `event`'s line.
    ///
    /// # Errors
    /// The output's error.
    pub fn write(&mut self, event: &Event) -> Result<(), WriteError> {
        self.write_named(event, None)
    }

    /// Returns the output, flushed.
    ///
    /// # Errors
    /// The output's error.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.out.flush()?;
        Ok(self.out)
    }
}
