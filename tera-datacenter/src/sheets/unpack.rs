pub struct UnpackStats;
pub fn write_sheets() {}
