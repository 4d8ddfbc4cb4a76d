//! Per-mod settings, as tera-toolbox's `mod.settings`: a serde type kept in
//! `DIR/NAME.json` as `{"version": N, "data": ...}`, loaded when the mod is
//! installed, saved when a call changed it and when the mod leaves the
//! connection, migrated from other versions by the type's own hook. A file
//! that does not load is reported and renamed beside (`NAME.json.bad`),
//! never lost, and the defaults are used. The connections of a process
//! share one owner of each file (`settings_owner.rs`), so that none writes
//! over another's change.

use std::io::ErrorKind;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::settings_owner::{self, Loaded, OwnerState, SettingsOwner};

/// The data of a mod's settings: a serde type with a version number and a
/// migration from older versions.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use tera_proxy::ModSettings;
///
/// #[derive(Serialize, Deserialize)]
/// struct AfkSettings {
///     message: String,
/// }
///
/// impl Default for AfkSettings {
///     fn default() -> Self {
///         AfkSettings { message: "away".to_owned() }
///     }
/// }
///
/// impl ModSettings for AfkSettings {
///     const VERSION: u32 = 2;
///
///     fn migrate(version: u32, data: serde_json::Value) -> Result<Self, String> {
///         match version {
///             // Version 1 kept the message under another name.
///             1 => Ok(AfkSettings {
///                 message: data["reply"].as_str().ok_or("no reply in version 1")?.to_owned(),
///             }),
///             _ => Err(format!("no migration from version {version}")),
///         }
///     }
/// }
/// ```
pub trait ModSettings: Serialize + DeserializeOwned + Default + Send + 'static {
    /// The version of the type's shape, written in the file beside the
    /// data. A file of another version is handed to
    /// [`migrate`](ModSettings::migrate).
    const VERSION: u32 = 1;

    /// The settings from a file of `version` (not [`VERSION`](Self::VERSION)):
    /// its `data`. The default reads the data as this version's.
    ///
    /// # Errors
    /// Why the data cannot be read: the file is then kept beside, reported,
    /// and the defaults are used.
    fn migrate(version: u32, data: Value) -> Result<Self, String> {
        serde_json::from_value(data)
            .map_err(|e| format!("version {version} data do not read as this version's: {e}"))
    }
}

/// A problem with a mod's settings file: it did not load (the defaults are
/// used; the file is kept beside, renamed) or could not be saved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("mod {module}: settings {}: {reason}{}", path.display(), kept.as_ref().map(|k| format!(" (kept as {})", k.display())).unwrap_or_default())]
pub struct SettingsProblem {
    /// The mod.
    pub module: &'static str,
    /// The settings file.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: String,
    /// Where the file that did not load was moved, if it was.
    pub kept: Option<PathBuf>,
}

/// A mod's settings: its [`ModSettings`] value, read through `Deref` and
/// changed through `DerefMut` (a change is saved once the hook, command or
/// timer that made it returns), and the file they are kept in.
///
/// A mod holds one in its state and returns it from
/// [`Mod::settings`](crate::Mod::settings); the connection loads it when
/// the mod is installed (from [`ProxyConfig::settings_dir`](crate::ProxyConfig::settings_dir))
/// and saves it when changed and when the mod leaves. Without a settings
/// folder the settings are the defaults and are not saved.
///
/// Every connection's copy of one file's settings shares one owner in the
/// process: a change saved on one connection is merged into the owner's
/// (the fields it changed), and each copy takes the others' changes before
/// each of its mod's calls. So two connections that change their settings
/// both keep their change, whichever saves last.
#[derive(Debug, Default)]
pub struct Settings<S> {
    value: S,
    /// The owner of the file; `None` until loaded from a folder, and when
    /// the file is not to be written.
    owner: Option<Arc<SettingsOwner>>,
    /// The owner's data this copy was made from, to tell what it changed.
    base: Value,
    /// The owner's generation this copy was made from.
    seen: u64,
    dirty: bool,
}

impl<S> Deref for Settings<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.value
    }
}

impl<S> DerefMut for Settings<S> {
    fn deref_mut(&mut self) -> &mut S {
        self.dirty = true;
        &mut self.value
    }
}

impl<S: ModSettings> Settings<S> {
    /// Settings of `value`, kept in no file until loaded.
    pub fn new(value: S) -> Self {
        Settings {
            value,
            owner: None,
            base: Value::Null,
            seen: 0,
            dirty: false,
        }
    }

    /// The file the settings are kept in, once loaded from a folder.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.owner.as_deref().map(|owner| owner.path.as_path())
    }

    /// Reads the settings of mod `module` from `dir/module.json`: those of
    /// the file's owner when another connection has it loaded; else the
    /// file's, the defaults when there is no file; on a file that does not
    /// load, the defaults and the problem (the file is renamed beside, so
    /// that the next save does not overwrite it).
    pub fn load(dir: &Path, module: &'static str) -> (Settings<S>, Option<SettingsProblem>) {
        let path = dir.join(format!("{module}.json"));
        let mut problem = None;
        let owner = settings_owner::owner_of(&path, || {
            let (loaded, found) = read_file::<S>(&path, module);
            problem = found;
            loaded
        });
        let mut settings = Settings::new(S::default());
        if let Some(owner) = owner {
            let state = owner.lock();
            match serde_json::from_value(state.data.clone()) {
                Ok(value) => {
                    settings.value = value;
                    settings.base = state.data.clone();
                    settings.seen = state.generation;
                    drop(state);
                    settings.owner = Some(owner);
                }
                Err(e) => {
                    // Another mod of the same name, with another type.
                    problem = Some(SettingsProblem {
                        module,
                        path: path.clone(),
                        reason: format!(
                            "loaded by another mod as another type ({e}); \
                             the defaults are used and not saved"
                        ),
                        kept: None,
                    });
                }
            }
        }
        (settings, problem)
    }

    /// Writes the settings to their file (through a temporary file, so that
    /// a crash leaves the old or the new file whole). Without a file, does
    /// nothing.
    ///
    /// # Errors
    /// [`SettingsProblem`] when the folder or file cannot be written; the
    /// change is kept and written by the next save.
    pub fn save(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        self.write(module, true)
    }

    /// Writes the settings if they were changed (through `DerefMut`) since
    /// they were read or written, here or by another connection, and
    /// differ from what was, or if an earlier write failed.
    ///
    /// # Errors
    /// As [`save`](Settings::save).
    pub fn save_changes(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        self.write(module, false)
    }

    /// Takes the changes other connections made to the settings since
    /// this copy was made, after handing the owner this copy's own.
    pub fn refresh(&mut self) {
        let Some(owner) = self.owner.clone() else {
            return;
        };
        let mut state = owner.lock();
        // A change that does not serialize stays here, for the next save
        // to report.
        let _ = self.sync(&mut state);
    }

    /// Hands the owner this copy's change, then makes the copy the
    /// owner's data (with the other copies' changes).
    fn sync(&mut self, state: &mut OwnerState) -> Result<(), String> {
        if self.dirty {
            let new = serde_json::to_value(&self.value)
                .map_err(|e| format!("cannot serialize them: {e}"))?;
            state.merge(&self.base, &new);
            self.dirty = false;
        }
        if self.seen != state.generation {
            // Merged data that no longer read as the type (a field another
            // copy removed that this type needs) leave this copy's value.
            if let Ok(value) = serde_json::from_value(state.data.clone()) {
                self.value = value;
            }
            self.base = state.data.clone();
            self.seen = state.generation;
        }
        Ok(())
    }

    fn write(&mut self, module: &'static str, always: bool) -> Result<(), SettingsProblem> {
        let Some(owner) = self.owner.clone() else {
            self.dirty = false;
            return Ok(());
        };
        let problem = |reason: String| SettingsProblem {
            module,
            path: owner.path.clone(),
            reason,
            kept: None,
        };
        let mut state = owner.lock();
        self.sync(&mut state).map_err(problem)?;
        if !always && !state.dirty {
            return Ok(());
        }
        let file = File {
            version: S::VERSION,
            data: &self.value,
        };
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| problem(format!("cannot serialize them: {e}")))?;
        if !always && state.saved.as_deref() == Some(text.as_str()) {
            state.dirty = false;
            return Ok(());
        }
        settings_owner::write_whole(&owner.path, &text).map_err(problem)?;
        state.saved = Some(text);
        state.dirty = false;
        Ok(())
    }
}

/// Reads the settings file at `path` for a new owner: what it holds (the
/// defaults when there is none), or `None` when it is not to be written;
/// and the problem, if it did not load.
fn read_file<S: ModSettings>(
    path: &Path,
    module: &'static str,
) -> (Option<Loaded>, Option<SettingsProblem>) {
    let loaded = |value: &S, saved: Option<String>, dirty: bool| {
        serde_json::to_value(value)
            .ok()
            .map(|data| Loaded { data, saved, dirty })
    };
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => (loaded(&S::default(), None, false), None),
        Err(e) => {
            // Unreadable but maybe fine: never write over it.
            let problem = SettingsProblem {
                module,
                path: path.to_owned(),
                reason: format!("cannot read it ({e}); the defaults are used and not saved"),
                kept: None,
            };
            (None, Some(problem))
        }
        Ok(text) => match read::<S>(&text) {
            Ok((value, migrated)) => (loaded(&value, Some(text), migrated), None),
            Err(reason) => {
                let kept = keep_beside(path);
                // Unmoved, saving would write over the only copy.
                let saved = kept.is_some().then(|| loaded(&S::default(), None, false));
                let problem = SettingsProblem {
                    kept,
                    module,
                    path: path.to_owned(),
                    reason: format!("{reason}; the defaults are used"),
                };
                (saved.flatten(), Some(problem))
            }
        },
    }
}

/// The file's shape, as tera-toolbox writes it.
#[derive(Serialize)]
struct File<'a, S> {
    version: u32,
    data: &'a S,
}

/// The settings in a file's text, and whether they were migrated.
fn read<S: ModSettings>(text: &str) -> Result<(S, bool), String> {
    let file: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let (Some(version), Some(data)) = (file.get("version"), file.get("data")) else {
        return Err("not {\"version\": N, \"data\": ...}".to_owned());
    };
    let version = version
        .as_u64()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("version {version} is not a number of 32 bits"))?;
    if version == S::VERSION {
        let value = serde_json::from_value(data.clone())
            .map_err(|e| format!("the data do not read as version {version}: {e}"))?;
        Ok((value, false))
    } else {
        let value = S::migrate(version, data.clone())
            .map_err(|e| format!("migration from version {version}: {e}"))?;
        Ok((value, true))
    }
}

/// Renames a settings file that did not load to the first free name of
/// `NAME.json.bad`, `NAME.json.bad.2`, ...: where it went, or `None` when
/// it could not be moved.
fn keep_beside(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let free = (1..1000u32)
        .map(|n| match n {
            1 => path.with_file_name(format!("{name}.bad")),
            n => path.with_file_name(format!("{name}.bad.{n}")),
        })
        .find(|candidate| !candidate.exists())?;
    std::fs::rename(path, &free).ok()?;
    Some(free)
}

/// A mod's [`Settings`], whatever their type: what the connection loads and
/// saves. Implemented by [`Settings`] only.
pub trait SettingsFile: Send {
    /// Loads the settings of mod `module` from `dir` (see
    /// [`Settings::load`]), in place.
    fn load_from(&mut self, dir: &Path, module: &'static str) -> Option<SettingsProblem>;

    /// Saves them if changed (see [`Settings::save_changes`]).
    ///
    /// # Errors
    /// As [`Settings::save`].
    fn save_changes(&mut self, module: &'static str) -> Result<(), SettingsProblem>;

    /// Saves them (see [`Settings::save`]).
    ///
    /// # Errors
    /// As [`Settings::save`].
    fn save(&mut self, module: &'static str) -> Result<(), SettingsProblem>;

    /// Takes the changes other connections saved (see
    /// [`Settings::refresh`]): called before each of the mod's calls.
    fn refresh(&mut self) {}
}

impl<S: ModSettings> SettingsFile for Settings<S> {
    fn load_from(&mut self, dir: &Path, module: &'static str) -> Option<SettingsProblem> {
        let (loaded, problem) = Settings::load(dir, module);
        *self = loaded;
        problem
    }

    fn save_changes(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        Settings::save_changes(self, module)
    }

    fn save(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        Settings::save(self, module)
    }

    fn refresh(&mut self) {
        Settings::refresh(self);
    }
}
