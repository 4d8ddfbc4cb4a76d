//! The packets compiled into `tera-data` as a [`PacketSet`]: its
//! `PACKETS` table, `AnyPacket` dispatch and `PROTOCOL_MAPS`.

use std::sync::{Arc, OnceLock};

use tera_data::{AnyError, AnyPacket, PACKETS, PROTOCOL_MAPS, PacketInfo, ProtocolMap};
use tera_dynamic::Misfit;

use crate::def::{CodecError, Def, DefInfo};
use crate::json::write_value;
use crate::named::PacketValue;
use crate::packet_set::PacketSet;

/// The packets compiled into `tera-data`: the project's `defs/` and
/// `maps/`, or the tera-data checkout named by `TERA_DATA_DIR` when it
/// was built.
#[derive(Debug, Default)]
pub struct Compiled {
    maps: OnceLock<Vec<Arc<ProtocolMap>>>,
}

impl Compiled {
    /// The compiled-in packets.
    #[must_use]
    pub fn new() -> Compiled {
        Compiled::default()
    }

    /// The defs of `name`, with and without platform: `PACKETS` is sorted
    /// by name.
    fn named(name: &str) -> &'static [PacketInfo] {
        let start = PACKETS.partition_point(|p| p.name < name);
        let len = PACKETS
            .get(start..)
            .map_or(0, |rest| rest.partition_point(|p| p.name == name));
        PACKETS.get(start..start + len).unwrap_or_default()
    }
}

impl PacketSet for Compiled {
    fn defs(&self) -> Vec<DefInfo<'_>> {
        PACKETS
            .iter()
            .map(|p| DefInfo {
                name: p.name,
                version: p.version,
                platform: p.platform,
                fixed_len: p.fixed_len,
            })
            .collect()
    }

    fn versions(&self, name: &str) -> Vec<u32> {
        let mut versions: Vec<u32> = Compiled::named(name)
            .iter()
            .filter(|p| p.platform.is_none())
            .map(|p| p.version)
            .collect();
        versions.sort_unstable();
        versions
    }

    fn protocol_maps(&self) -> Vec<Arc<ProtocolMap>> {
        self.maps
            .get_or_init(|| {
                PROTOCOL_MAPS
                    .iter()
                    .map(|m| Arc::new(ProtocolMap::from_static(m)))
                    .collect()
            })
            .clone()
    }

    fn what(&self) -> &'static str {
        "compiled in"
    }

    fn list_hint(&self) -> &'static str {
        "`tera-defs list` shows the compiled-in packets"
    }

    fn write_json(
        &self,
        def: &Def,
        packet: &[u8],
        pretty: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        let value = match AnyPacket::decode(def.name(), def.version(), packet) {
            Ok(value) => value,
            Err(AnyError::UnknownPacket { .. }) => return Err(CodecError::Unknown(def.clone())),
            Err(e) => {
                return Err(CodecError::Decode {
                    def: def.clone(),
                    source: Box::new(e),
                });
            }
        };
        write_value(out, def, &value, pretty)
    }

    fn read(&self, def: &Def, packet: &[u8]) -> Result<PacketValue, CodecError> {
        match AnyPacket::decode(def.name(), def.version(), packet) {
            Ok(value) => Ok(PacketValue::Typed(Box::new(value.into_owned()))),
            Err(AnyError::UnknownPacket { .. }) => Err(CodecError::Unknown(def.clone())),
            Err(e) => Err(CodecError::Decode {
                def: def.clone(),
                source: Box::new(e),
            }),
        }
    }

    fn fit(&self, def: &Def, packet: &[u8]) -> Result<(), String> {
        let value = AnyPacket::decode(def.name(), def.version(), packet)
            .map_err(|e| format!("does not decode: {e}"))?;
        let opcode = match packet {
            [_, _, lo, hi, ..] => u16::from_le_bytes([*lo, *hi]),
            _ => 0,
        };
        let mut again = vec![0; value.encoded_len()];
        let len = value
            .encode_into_with_opcode(opcode, &mut again)
            .map_err(|e| format!("does not encode again: {e}"))?;
        again.truncate(len);
        Misfit::compare(&again, packet).map_err(|e| e.to_string())
    }

    fn encode_json(
        &self,
        def: &Def,
        opcode: u16,
        json: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        if self.lookup(def.name(), def.version()).is_none() {
            return Err(CodecError::Unknown(def.clone()));
        }
        let mut de = serde_json::Deserializer::from_str(json);
        let packet = AnyPacket::deserialize_as(def.name(), def.version(), &mut de)
            .and_then(|p| de.end().map(|()| p))
            .map_err(|source| CodecError::NotAValue {
                def: def.clone(),
                source,
            })?;
        out.clear();
        out.resize(packet.encoded_len(), 0);
        let len = packet
            .encode_into_with_opcode(opcode, out)
            .map_err(|e| CodecError::Encode {
                def: def.clone(),
                source: Box::new(e),
            })?;
        out.truncate(len);
        Ok(())
    }
}
