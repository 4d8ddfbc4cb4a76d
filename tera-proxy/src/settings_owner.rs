//! The one owner of each settings file in the process: every connection's
//! [`Settings`](crate::Settings) of a mod share it, so that what one
//! connection changes is seen by the others and not written over when
//! another saves. Each copy's change is merged into the owner's data (the
//! fields it changed, not the whole value), and the owner writes the file
//! through a temporary file of its own, synced to the disk before it
//! replaces the old.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use serde_json::Value;

/// The settings of one file, shared by every connection's copy.
#[derive(Debug)]
pub(crate) struct SettingsOwner {
    pub(crate) path: PathBuf,
    state: Mutex<OwnerState>,
}

/// The shared settings, behind the owner's lock.
#[derive(Debug)]
pub(crate) struct OwnerState {
    /// The settings as JSON, with every copy's changes merged in.
    pub(crate) data: Value,
    /// Counts the changes merged in, for a copy to see that it is behind.
    pub(crate) generation: u64,
    /// The file's text as last read or written, to skip writing the same.
    pub(crate) saved: Option<String>,
    /// A change not written yet (none was asked for, or the write failed):
    /// the next save writes it.
    pub(crate) dirty: bool,
}

impl OwnerState {
    /// Merges a copy's change into the data: `new` is the copy's value,
    /// `base` the data it was made from. Fields the copy did not change
    /// keep what other copies wrote.
    pub(crate) fn merge(&mut self, base: &Value, new: &Value) {
        if base == new {
            return;
        }
        merge(&mut self.data, base, new);
        self.generation += 1;
        self.dirty = true;
    }
}

impl SettingsOwner {
    pub(crate) fn lock(&self) -> MutexGuard<'_, OwnerState> {
        // Nothing panics while the lock is held (serde is given plain data).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The owners alive in the process, by file: weak, so that an owner goes
/// with the last copy, and the next connection reads the file again.
static OWNERS: Mutex<Option<HashMap<PathBuf, Weak<SettingsOwner>>>> = Mutex::new(None);

/// What loading found for a file that has no owner yet.
pub(crate) struct Loaded {
    pub(crate) data: Value,
    pub(crate) saved: Option<String>,
    pub(crate) dirty: bool,
}

/// The owner of the settings file at `path`: the live one, or, when there
/// is none, the one made from what `load` read of the file (`None` from
/// `load`: the file is not to be written, and there is no owner). `load`
/// runs under the registry's lock, so that two connections never make two
/// owners of a file.
pub(crate) fn owner_of(
    path: &Path,
    load: impl FnOnce() -> Option<Loaded>,
) -> Option<Arc<SettingsOwner>> {
    let key = key_of(path);
    let mut owners = OWNERS.lock().unwrap_or_else(PoisonError::into_inner);
    let owners = owners.get_or_insert_with(HashMap::new);
    if let Some(owner) = owners.get(&key).and_then(Weak::upgrade) {
        return Some(owner);
    }
    owners.retain(|_, owner| owner.strong_count() > 0);
    let loaded = load()?;
    let owner = Arc::new(SettingsOwner {
        path: path.to_owned(),
        state: Mutex::new(OwnerState {
            data: loaded.data,
            generation: 0,
            saved: loaded.saved,
            dirty: loaded.dirty,
        }),
    });
    owners.insert(key, Arc::downgrade(&owner));
    Some(owner)
}

/// The registry's key of a file: its folder resolved when it exists, so
/// that two spellings of one folder share an owner.
fn key_of(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|dir| dir.join(name))
            .unwrap_or_else(|_| path.to_owned()),
        _ => path.to_owned(),
    }
}

/// `new`'s changes from `base`, applied to `current`: an object's fields
/// one by one (a field changed, added or removed in `new`), anything else
/// whole.
fn merge(current: &mut Value, base: &Value, new: &Value) {
    if base == new {
        return;
    }
    match (current, base, new) {
        (Value::Object(current), Value::Object(base), Value::Object(new)) => {
            for (name, value) in new {
                match (base.get(name), current.get_mut(name)) {
                    (Some(was), Some(now)) => merge(now, was, value),
                    (Some(was), None) if was == value => {}
                    _ => {
                        current.insert(name.clone(), value.clone());
                    }
                }
            }
            for name in base.keys().filter(|name| !new.contains_key(*name)) {
                current.remove(name);
            }
        }
        (current, _, _) => *current = new.clone(),
    }
}

/// Writes `text` to `path` so that a crash leaves the old file or the new
/// one whole: into a temporary file of a name no other writer has, beside
/// it, synced to the disk, renamed over the file, and the folder synced so
/// that the rename lasts.
///
/// # Errors
/// What failed, as a sentence.
pub(crate) fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the folder: {e}"))?;
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| format!("cannot create a temporary file: {e}"))?;
    temporary
        .write_all(text.as_bytes())
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| format!("cannot write them: {e}"))?;
    temporary
        .persist(path)
        .map_err(|e| format!("cannot replace the file: {}", e.error))?;
    sync_folder(dir).map_err(|e| format!("cannot sync the folder: {e}"))
}

/// Syncs a folder's entries (a rename) to the disk, where the system
/// allows it: Windows cannot open a folder as a file, and makes a rename
/// last without it.
fn sync_folder(dir: &Path) -> std::io::Result<()> {
    if cfg!(unix) {
        std::fs::File::open(dir)?.sync_all()
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_merge_keeps_the_fields_another_copy_changed() {
        let base = json!({"greeting": "hello", "installs": 0, "list": [1], "gone": 1});
        let mut current = json!({"greeting": "hey", "installs": 0, "list": [1], "gone": 1});
        let new = json!({"greeting": "hello", "installs": 1, "list": [1, 2], "added": true});
        merge(&mut current, &base, &new);
        assert_eq!(
            current,
            json!({"greeting": "hey", "installs": 1, "list": [1, 2], "added": true})
        );
    }

    #[test]
    fn a_write_leaves_no_temporary_file_and_a_stale_one_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("greeter.json");
        let stale = dir.path().join("greeter.json.tmp");
        std::fs::write(&stale, "another writer's").unwrap();
        write_whole(&path, "one").unwrap();
        write_whole(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_to_string(&stale).unwrap(), "another writer's");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
