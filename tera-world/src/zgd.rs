//! ZGD: the volumes of every cell of a zone.

use crate::brotli_io::{Reader, compress, decompress};
use crate::{CELL_SIZE, CELLS, SQUARES, WorldError};

const CELL_COUNT: usize = SQUARES * SQUARES * CELLS * CELLS;

/// A walkable volume of a cell: a floor height and the free height above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Volume {
    /// Floor height.
    pub z: i16,
    /// Free height above the floor.
    pub height: u16,
}

/// A zone's coordinates, from its file name `x{X:0000}y{Y:0000}.zgd`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZoneId {
    /// X index.
    pub x: u32,
    /// Y index.
    pub y: u32,
}

impl ZoneId {
    /// Parses `x0012y0034.zgd` (a path is fine: the last component counts).
    pub fn from_file_name(name: &str) -> Result<Self, WorldError> {
        let err = || WorldError::FileName(name.into());
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let stem = base.strip_suffix(".zgd").ok_or_else(err)?;
        let rest = stem.strip_prefix('x').ok_or_else(err)?;
        let (x, y) = rest.split_once('y').ok_or_else(err)?;
        let digits = |s: &str| {
            (s.len() == 4 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        Ok(ZoneId {
            x: digits(x).ok_or_else(err)?,
            y: digits(y).ok_or_else(err)?,
        })
    }

    /// The file name of the zone.
    pub fn file_name(&self) -> String {
        format!("x{:04}y{:04}.zgd", self.x, self.y)
    }
}

/// The geometry of one zone: 120 x 120 squares of 8 x 8 cells, each cell with
/// its volumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zgd {
    /// Index of each cell's first volume (one more entry than cells).
    starts: Vec<u32>,
    volumes: Vec<Volume>,
}

/// Index of a cell in file order (square x, square y, cell x, cell y; the
/// last fastest).
fn cell_index(square_x: usize, square_y: usize, cell_x: usize, cell_y: usize) -> Option<usize> {
    (square_x < SQUARES && square_y < SQUARES && cell_x < CELLS && cell_y < CELLS)
        .then(|| ((square_x * SQUARES + square_y) * CELLS + cell_x) * CELLS + cell_y)
}

impl Zgd {
    /// A zone from the volumes of each cell in file order (921,600 lists).
    /// Returns `None` for another number of cells or a cell with more than
    /// 255 volumes.
    pub fn from_cells(cells: Vec<Vec<Volume>>) -> Option<Self> {
        if cells.len() != CELL_COUNT || cells.iter().any(|c| c.len() > 255) {
            return None;
        }
        let mut starts = Vec::with_capacity(CELL_COUNT + 1);
        let mut volumes = Vec::new();
        for c in cells {
            starts.push(volumes.len() as u32);
            volumes.extend(c);
        }
        starts.push(volumes.len() as u32);
        Some(Zgd { starts, volumes })
    }

    /// Reads a compressed file.
    pub fn read(compressed: &[u8]) -> Result<Self, WorldError> {
        Self::from_decompressed(&decompress(compressed)?)
    }

    /// Reads decompressed bytes. Volumes are stored as 16-bit wrapping
    /// differences from the previous volume of the whole file.
    pub fn from_decompressed(bytes: &[u8]) -> Result<Self, WorldError> {
        if bytes.len() < CELL_COUNT {
            return Err(WorldError::Truncated {
                what: "ZGD cells",
                offset: bytes.len(),
            });
        }
        let mut r = Reader { b: bytes, pos: 0 };
        let mut starts = Vec::with_capacity(CELL_COUNT + 1);
        let mut volumes = Vec::with_capacity((bytes.len() - CELL_COUNT) / 4);
        let (mut z, mut height) = (0u16, 0u16);
        for _ in 0..CELL_COUNT {
            starts.push(volumes.len() as u32);
            for _ in 0..r.u8("volume count")? {
                z = z.wrapping_add(r.u16("volume")?);
                height = height.wrapping_add(r.u16("volume")?);
                volumes.push(Volume {
                    z: z as i16,
                    height,
                });
            }
        }
        starts.push(volumes.len() as u32);
        r.end()?;
        Ok(Zgd { starts, volumes })
    }

    /// The decompressed bytes.
    pub fn to_decompressed(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(CELL_COUNT + self.volumes.len() * 4);
        let mut previous = Volume::default();
        for w in self.starts.windows(2) {
            out.push((w[1] - w[0]) as u8);
            for v in &self.volumes[w[0] as usize..w[1] as usize] {
                out.extend_from_slice(&(v.z.wrapping_sub(previous.z)).to_le_bytes());
                out.extend_from_slice(&(v.height.wrapping_sub(previous.height)).to_le_bytes());
                previous = *v;
            }
        }
        out
    }

    /// The compressed file at a Brotli quality (the game's files use 11).
    pub fn write(&self, quality: u32) -> Vec<u8> {
        compress(&self.to_decompressed(), quality)
    }

    /// The volumes of a cell (`None` when an index is out of range).
    pub fn volumes(
        &self,
        square_x: usize,
        square_y: usize,
        cell_x: usize,
        cell_y: usize,
    ) -> Option<&[Volume]> {
        let i = cell_index(square_x, square_y, cell_x, cell_y)?;
        Some(&self.volumes[self.starts[i] as usize..self.starts[i + 1] as usize])
    }

    /// The volumes of the cell at a position in game units, relative to the
    /// zone's corner (0 <= x, y < [`ZONE_SIZE`](crate::ZONE_SIZE)).
    pub fn volumes_at(&self, x: f32, y: f32) -> Option<&[Volume]> {
        if !(x >= 0.0 && y >= 0.0) {
            return None;
        }
        let (cx, cy) = ((x / CELL_SIZE) as usize, (y / CELL_SIZE) as usize);
        self.volumes(cx / CELLS, cy / CELLS, cx % CELLS, cy % CELLS)
    }

    /// The volume whose floor is the highest one at or below `z` at a
    /// position, as a walker standing there would use.
    pub fn floor_at(&self, x: f32, y: f32, z: f32) -> Option<Volume> {
        self.volumes_at(x, y)?
            .iter()
            .filter(|v| v.z as f32 <= z)
            .max_by_key(|v| v.z)
            .copied()
    }

    /// All volumes, in file order.
    pub fn all_volumes(&self) -> &[Volume] {
        &self.volumes
    }
}
