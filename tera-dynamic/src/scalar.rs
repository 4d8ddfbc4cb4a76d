//! Each def scalar as the runtime type the generated packets use for it,
//! read and written through that type's own impls, so that the dynamic
//! path reads and writes their bytes exactly: what the walks call once per
//! scalar field, the type chosen by the operation.

use tera_packets::{Wire, Writer};

use crate::scalars::for_each_scalar;
use crate::slot::Slot;
use crate::value::Value;

/// A scalar's runtime type, as a view's slot and as a value's variant.
pub(crate) trait ScalarType: Copy + for<'a> Wire<'a> {
    /// The value as a view's slot.
    fn into_slot(self) -> Slot;
    /// The value `value` holds, if it is of this type.
    fn of(value: &Value<'_>) -> Option<Self>;
}

/// Implements [`ScalarType`] from the scalar list, and [`write()`].
macro_rules! scalar_types {
    ([] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        $(
            impl ScalarType for $t {
                #[inline(always)]
                fn into_slot(self) -> Slot {
                    Slot::$v(self)
                }
                #[inline(always)]
                fn of(value: &Value<'_>) -> Option<Self> {
                    match value {
                        Value::$v(x) => Some(*x),
                        _ => None,
                    }
                }
            }
        )*

        /// Writes `v` at the cursor (a value of another type than a
        /// scalar writes nothing: the encoder checked the types first).
        #[inline]
        pub(crate) fn write(v: &Value<'_>, w: &mut Writer<'_>) {
            match v {
                $(Value::$v(x) => x.write(w, 0),)*
                Value::String(_)
                | Value::Bytes(_)
                | Value::Array(_)
                | Value::Object(_)
                | Value::Null => {}
            }
        }
    };
}
for_each_scalar!(scalar_types);
