//! Defs loaded at run time ([`tera_dynamic::Catalog`]) as a [`PacketSet`].

use std::sync::Arc;

use tera_data::ProtocolMap;
use tera_dynamic::Catalog;

use crate::def::{CodecError, Def, DefInfo};
use crate::json::write_value;
use crate::named::PacketValue;
use crate::packet_set::PacketSet;

impl PacketSet for Catalog {
    fn defs(&self) -> Vec<DefInfo<'_>> {
        self.iter()
            .map(|s| DefInfo {
                name: s.name(),
                version: s.version(),
                platform: s.platform(),
                fixed_len: s.fixed_len(),
            })
            .collect()
    }

    fn versions(&self, name: &str) -> Vec<u32> {
        let mut versions: Vec<u32> = self
            .iter()
            .filter(|s| s.name() == name && s.platform().is_none())
            .map(|s| s.version())
            .collect();
        versions.sort_unstable();
        versions
    }

    fn protocol_maps(&self) -> Vec<Arc<ProtocolMap>> {
        self.protocol_map()
            .map(|map| Arc::new(map.clone()))
            .into_iter()
            .collect()
    }

    fn what(&self) -> &'static str {
        "loaded"
    }

    fn list_hint(&self) -> &'static str {
        "`tera-defs list --defs DIR` shows the loaded defs"
    }

    fn lookup(&self, name: &str, version: u32) -> Option<Def> {
        Catalog::get(self, name, version).map(|s| Def::new(s.name(), s.version()))
    }

    fn lookup_latest(&self, name: &str) -> Option<Def> {
        Catalog::latest(self, name).map(|s| Def::new(s.name(), s.version()))
    }

    fn write_json(
        &self,
        def: &Def,
        packet: &[u8],
        pretty: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        let schema = Catalog::get(self, def.name(), def.version())
            .ok_or_else(|| CodecError::Unknown(def.clone()))?;
        // A view: the same JSON as a record, without a vector per field.
        let view = schema.view(packet).map_err(|e| CodecError::Decode {
            def: def.clone(),
            source: Box::new(e),
        })?;
        write_value(out, def, &view, pretty)
    }

    fn read(&self, def: &Def, packet: &[u8]) -> Result<PacketValue, CodecError> {
        let schema = Catalog::get(self, def.name(), def.version())
            .ok_or_else(|| CodecError::Unknown(def.clone()))?;
        let record = schema.decode(packet).map_err(|e| CodecError::Decode {
            def: def.clone(),
            source: Box::new(e),
        })?;
        Ok(PacketValue::Record(record.into_owned()))
    }

    fn fit(&self, def: &Def, packet: &[u8]) -> Result<(), String> {
        let schema = Catalog::get(self, def.name(), def.version())
            .ok_or_else(|| CodecError::Unknown(def.clone()).to_string())?;
        schema.fit(packet).map_err(|e| e.to_string())
    }

    fn encode_json(
        &self,
        def: &Def,
        opcode: u16,
        json: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        let schema = Catalog::get(self, def.name(), def.version())
            .ok_or_else(|| CodecError::Unknown(def.clone()))?;
        let mut de = serde_json::Deserializer::from_str(json);
        let value = schema
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v))
            .map_err(|source| CodecError::NotAValue {
                def: def.clone(),
                source,
            })?;
        *out = schema
            .encode(&value, opcode)
            .map_err(|e| CodecError::Encode {
                def: def.clone(),
                source: Box::new(e),
            })?;
        Ok(())
    }
}
